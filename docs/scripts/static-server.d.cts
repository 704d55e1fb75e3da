import type { IncomingMessage, ServerResponse } from 'node:http';

export type Resolution =
  { file: string | null; status: number; redirect?: undefined } | { redirect: string; file?: undefined; status?: undefined };

export function resolveRequest(root: string, pathname: string, languages?: string[]): Resolution;
export function createDocsHandler(rootDir: string): (request: IncomingMessage, response: ServerResponse) => void;
export function startDocsServer(options: {
  root: string;
  port?: number;
  host?: string;
}): Promise<{ url: string; close(): Promise<void> }>;
