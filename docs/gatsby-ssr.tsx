import React from 'react';
import type { GatsbySSR } from 'gatsby';
import { analyticsScript, initialScript } from './src/site/head-scripts';
import { siteConfig } from './src/site/site-config';
import { wrapPageElement as wrap } from './src/site/wrap';

export const onRenderBody: GatsbySSR['onRenderBody'] = ({ setHeadComponents, setHtmlAttributes }) => {
  setHtmlAttributes({ 'data-theme': 'light' } as Record<string, string>);
  const analytics = analyticsScript(siteConfig.analyticsSrc);
  setHeadComponents([
    <script key="initial" dangerouslySetInnerHTML={{ __html: initialScript() }} />,
    ...(analytics ? [<script key="analytics" src={analytics.src} defer />] : []),
  ]);
};

export const wrapPageElement: GatsbySSR['wrapPageElement'] = ({ element, props }) => wrap({ element, props });
