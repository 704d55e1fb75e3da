/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS Gatsby plugin: Gatsby requires its gatsby-node.js */
// The pages of each language and the Locale nodes, by gatsby-plugin-react-i18next (its node APIs,
// with this plugin's options). Its browser and SSR halves (i18next and react-i18next in every
// page's scripts) are left out: the site translates with src/site/translation.tsx.
const { onCreatePage } = require('gatsby-plugin-react-i18next/dist/plugin/onCreatePage');
const { onCreateNode } = require('gatsby-plugin-react-i18next/dist/plugin/onCreateNode');

exports.onCreatePage = onCreatePage;
exports.onCreateNode = onCreateNode;
