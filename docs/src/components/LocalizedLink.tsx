import type React from 'react';
import { Link as I18nLink } from 'gatsby-plugin-react-i18next';

/** Props of the plugin's Link: a Gatsby Link whose `to` is prefixed with the current language. */
export interface LocalizedLinkProps extends Omit<React.AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: string;
  language?: string;
  activeClassName?: string;
  partiallyActive?: boolean;
}

// The plugin's published prop types were generated against other React typings (they require
// props such as `onResize`): this is the same component with the props it really takes.
export const Link = I18nLink as unknown as React.FC<LocalizedLinkProps>;
