import type { GatsbyBrowser } from 'gatsby';
import 'prismjs/themes/prism.css';
import './src/styles/global.css';
import { wrapPageElement as wrap } from './src/site/wrap';

export const wrapPageElement: GatsbyBrowser['wrapPageElement'] = ({ element, props }) => wrap({ element, props });

/** Marks the document once React has rendered in the browser (the browser tests wait for it). */
export const onInitialClientRender: GatsbyBrowser['onInitialClientRender'] = () => {
  document.documentElement.dataset.hydrated = 'true';
};
