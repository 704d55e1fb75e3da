/** A Gatsby Link whose `to` is prefixed with the current language (src/site/translation.tsx). */
export { Link, type LocalizedLinkProps } from '../site/translation';
