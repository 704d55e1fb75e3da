import type { GatsbyBrowser } from 'gatsby';
import 'prismjs/themes/prism.css';
import './src/styles/global.css';
import { renderSite } from './src/site/hydrate';
import { wrapPageElement as wrap } from './src/site/wrap';

/** Hydration in a transition: time-sliced, so it does not block the main thread (src/site/hydrate.ts). */
export const replaceHydrateFunction: GatsbyBrowser['replaceHydrateFunction'] = () =>
  renderSite as unknown as ReturnType<NonNullable<GatsbyBrowser['replaceHydrateFunction']>>;

export const wrapPageElement: GatsbyBrowser['wrapPageElement'] = ({ element, props }) => wrap({ element, props });

/** Marks the document once React has rendered in the browser (the browser tests wait for it). */
export const onInitialClientRender: GatsbyBrowser['onInitialClientRender'] = () => {
  document.documentElement.dataset.hydrated = 'true';
};
