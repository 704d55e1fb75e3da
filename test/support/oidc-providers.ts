import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from './free-port';

/** An OpenID Connect provider running as its own process on 127.0.0.1. */
export interface OidcProcess {
  issuer: string;
  stop(): Promise<void>;
}

/**
 * Starts `test/support/<script>` (oidc-provider.mjs, the real provider; oidc-forger.mjs, the
 * hand-made one for token-level attacks) with this configuration, once it listens.
 */
export async function startOidcProcess(script: string, env: Record<string, string>): Promise<OidcProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [join(__dirname, script)], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const issuer = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start: ${output}`)), 20_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /ready (\S+)/.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve(ready[1] as string);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`${script} exited (${code}): ${output}`)));
  });
  return {
    issuer,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** What the browser sees on one request. */
export interface BrowserHop {
  status: number;
  location: string | null;
  body: string;
  correlationId: string | null;
}

/** A browser with a cookie jar per origin, following nothing by itself. */
export class CookieBrowser {
  private readonly jar = new Map<string, Map<string, string>>();

  async get(url: string): Promise<BrowserHop> {
    return this.send(url, { method: 'GET' });
  }

  async post(url: string, form: Record<string, string>): Promise<BrowserHop> {
    return this.send(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
  }

  private async send(url: string, init: RequestInit): Promise<BrowserHop> {
    const { origin } = new URL(url);
    const cookies = [...(this.jar.get(origin) ?? new Map<string, string>()).entries()].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), ...(cookies ? { cookie: cookies } : {}) },
    });
    const jar = this.jar.get(origin) ?? new Map<string, string>();
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = (pair as string).split('=');
      jar.set((name as string).trim(), value.join('='));
    }
    this.jar.set(origin, jar);
    const location = response.headers.get('location');
    return {
      status: response.status,
      location: location ? new URL(location, url).toString() : null,
      body: await response.text(),
      correlationId: response.headers.get('x-correlation-id'),
    };
  }
}

/**
 * The user at oidc-provider: from the authorization URL, through its login form (any password)
 * and consent form, to the redirect that leaves the provider. Answers that redirect's URL.
 */
export async function signInAtProvider(browser: CookieBrowser, authorizationUrl: string, login: string): Promise<string> {
  const { origin } = new URL(authorizationUrl);
  let hop = await browser.get(authorizationUrl);
  for (let step = 0; step < 12; step += 1) {
    if (hop.location && new URL(hop.location).origin !== origin) return hop.location;
    if (hop.location) {
      hop = await browser.get(hop.location);
      continue;
    }
    const action = /<form[^>]*action="([^"]+)"/.exec(hop.body)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(hop.body)?.[1];
    if (hop.status !== 200 || !action || !prompt)
      throw new Error(`unexpected provider page ${hop.status}: ${hop.body.slice(0, 500)}`);
    const form: Record<string, string> = prompt === 'login' ? { prompt, login, password: 'any password' } : { prompt };
    hop = await browser.post(new URL(action, origin).toString(), form);
  }
  throw new Error('the provider never redirected back');
}
