import { catalogueError } from '@sesame/contracts';
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from './api-error';

/**
 * CSRF defence of the calls only Sesame's own pages make (`sameOrigin` operations): a browser
 * names the page that sends a request in `Origin` (every POST and PUT) and, for current
 * browsers, says in `Sec-Fetch-Site` whether it came from another site. A request whose origin
 * is not Sesame's public one, or that a browser marks cross-site or same-site (a sibling
 * subdomain), is refused with 403 `cross_site_request`. Clients that are not browsers send
 * neither header and carry no browser's cookie.
 */
export function refuseCrossSite(headers: IncomingHttpHeaders, publicOrigin: string): void {
  const origin = headers.origin;
  const site = headers['sec-fetch-site'];
  const foreignOrigin = origin !== undefined && origin !== publicOrigin;
  const foreignSite = site === 'cross-site' || site === 'same-site';
  if (foreignOrigin || foreignSite) throw new ApiError(catalogueError('cross_site_request'));
}
