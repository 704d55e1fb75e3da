import type { GatsbyConfig } from 'gatsby';
import { siteConfig } from './src/site/site-config';
import { sitemapEntry, sitemapExcludes, type SitemapPage } from './src/site/sitemap';

const config: GatsbyConfig = {
  siteMetadata: {
    title: siteConfig.title,
    siteUrl: siteConfig.siteUrl,
    description: 'Documentation of Sesame, the open-source identity and authentication service for B2B software.',
  },
  trailingSlash: 'always',
  graphqlTypegen: false,
  plugins: [
    { resolve: 'gatsby-source-filesystem', options: { name: 'locale', path: `${__dirname}/locales` } },
    { resolve: 'gatsby-source-filesystem', options: { name: 'docs', path: `${__dirname}/content/docs` } },
    { resolve: 'gatsby-source-filesystem', options: { name: 'blog', path: `${__dirname}/content/blog` } },
    {
      resolve: 'gatsby-transformer-remark',
      options: {
        plugins: [
          {
            resolve: 'gatsby-remark-autolink-headers',
            options: { icon: false, className: 'heading-anchor', isIconAfterHeader: true, elements: ['h2', 'h3', 'h4'] },
          },
          { resolve: 'gatsby-remark-prismjs', options: { noInlineHighlight: true } },
        ],
      },
    },
    {
      // gatsby-plugin-react-i18next's pages per language, without its browser half (plugins/i18n-pages).
      resolve: 'i18n-pages',
      options: {
        localeJsonSourceName: 'locale',
        languages: [...siteConfig.languages],
        defaultLanguage: siteConfig.defaultLanguage,
        generateDefaultLanguagePage: false,
        redirect: false,
        siteUrl: siteConfig.siteUrl,
        trailingSlash: 'always',
        i18nextOptions: {
          interpolation: { escapeValue: false },
          keySeparator: '.',
          nsSeparator: false,
          returnNull: false,
        },
      },
    },
    {
      resolve: 'gatsby-plugin-sitemap',
      options: {
        // The plugin's i18n example reads a field Gatsby 5 no longer has: the page context carries it.
        query: `{ allSitePage { nodes { path pageContext } } }`,
        resolveSiteUrl: () => siteConfig.siteUrl,
        resolvePages: ({ allSitePage }: { allSitePage: { nodes: SitemapPage[] } }) => allSitePage.nodes,
        excludes: sitemapExcludes,
        filterPages: (
          page: SitemapPage,
          excludedRoute: string,
          tools: { minimatch: (path: string, pattern: string) => boolean },
        ) => tools.minimatch(page.path, excludedRoute) || page.pageContext?.unlisted === true,
        serialize: (page: SitemapPage) => sitemapEntry(page, siteConfig.siteUrl),
      },
    },
  ],
};

export default config;
