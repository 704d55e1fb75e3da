import type { IncomingMessage, ServerResponse } from 'node:http';

export type Resolution =
  { file: string | null; status: number; redirect?: undefined } | { redirect: string; file?: undefined; status?: undefined };

export function resolveRequest(root: string, pathname: string, languages?: string[]): Resolution;
/** The encodings a request accepts, among `br` and `gzip`, best first. */
export function acceptedEncodings(header: string | undefined): Array<'br' | 'gzip'>;
/** Whether a file of the site (absolute path under `root`) is named by its content: cached for a year. */
export function isImmutable(root: string, file: string): boolean;
export function createDocsHandler(rootDir: string): (request: IncomingMessage, response: ServerResponse) => void;
export function startDocsServer(options: {
  root: string;
  port?: number;
  host?: string;
}): Promise<{ url: string; close(): Promise<void> }>;
