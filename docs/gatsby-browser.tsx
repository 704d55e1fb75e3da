import type { GatsbyBrowser } from 'gatsby';
import 'prismjs/themes/prism.css';
import './src/styles/global.css';
import { normalizeHtmlPath } from './src/site/head-scripts';
import { wrapPageElement as wrap } from './src/site/wrap';

export const onClientEntry: GatsbyBrowser['onClientEntry'] = () => {
  const normalized = normalizeHtmlPath(window.location.pathname);
  if (normalized) window.history.replaceState(window.history.state, '', `${normalized}${window.location.search}${window.location.hash}`);
};

export const wrapPageElement: GatsbyBrowser['wrapPageElement'] = ({ element, props }) => wrap({ element, props });
