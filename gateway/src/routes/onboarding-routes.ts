import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { catalogueError } from '@sesame/contracts';
import { languageOfAcceptLanguage, messageLanguages } from '@sesame/platform';
import type { Logger, MessageLanguage } from '@sesame/platform';
import { ApiError } from '../http/api-error';

/** The built onboarding app (`npm run build` runs `vite build` in `onboarding/`). */
export const onboardingBuildDir = resolve(__dirname, '..', '..', '..', 'onboarding', 'dist');

/** Pages of the app: each answers its `index.html`, the app reads the path. */
export const onboardingPages = ['/onboarding/admin-invitation'];

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/**
 * The page carries the invitation token in its URL: no referrer leaves it, no frame embeds it,
 * and only our own scripts, styles and API run in it.
 */
const pageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
};

/**
 * Serves the IT-admin onboarding app (React, built by Vite) as static files: its pages and its
 * hashed assets, read once at start. Only those files are served: no part of a request path
 * reaches the file system.
 */
export function registerOnboardingRoutes(fastify: FastifyInstance, logger: Logger, directory = onboardingBuildDir): void {
  const indexFile = join(directory, 'index.html');
  const built = existsSync(indexFile);
  if (!built) logger.error({ directory }, 'the onboarding page is not built: run "npm run build"');
  const index = built ? pagesByLanguage(readFileSync(indexFile, 'utf8')) : null;
  const assets = new Map<string, { body: Buffer; type: string }>();
  const assetsDir = join(directory, 'assets');
  if (existsSync(assetsDir))
    for (const name of readdirSync(assetsDir)) {
      const type = contentTypes[extname(name)];
      if (type) assets.set(name, { body: readFileSync(join(assetsDir, name)), type });
    }

  for (const page of onboardingPages)
    fastify.get(page, async (request, reply) => {
      if (!index) throw new ApiError(catalogueError('service_unavailable'));
      const language = languageOfAcceptLanguage(request.headers['accept-language']);
      return reply
        .status(200)
        .headers({ ...pageHeaders, 'content-language': language, vary: 'Accept-Language' })
        .send(index[language]);
    });
  fastify.get<{ Params: { file: string } }>('/onboarding/assets/:file', async (request, reply) => {
    const asset = assets.get(request.params.file);
    if (!asset) throw new ApiError(catalogueError('resource_not_found'));
    return reply
      .status(200)
      .headers({
        'content-type': asset.type,
        'cache-control': 'public, max-age=31536000, immutable',
        'x-content-type-options': 'nosniff',
      })
      .send(asset.body);
  });
}

/**
 * The page in each language, as the browser's `Accept-Language` picks it: the document starts in
 * that language (`<html lang>`) before the app runs; the app then also weighs `?lang=` and the
 * organization's `locale`.
 */
export function pagesByLanguage(html: string): Record<MessageLanguage, string> {
  if (!/<html lang="en">/.test(html)) throw new Error('the onboarding page has no <html lang="en"> to set its language on');
  return Object.fromEntries(
    messageLanguages.map((language) => [language, html.replace('<html lang="en">', `<html lang="${language}">`)]),
  ) as Record<MessageLanguage, string>;
}
