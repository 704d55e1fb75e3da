import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A request the API answered: method, path and query, and the body it was sent. */
export interface SeenRequest {
  method: string;
  url: string;
  authorization: string | undefined;
  body: any;
}

/**
 * The part of the Kubernetes API that deploy/kubernetes-secret.mjs uses, over real HTTPS with a CA
 * of its own (openssl), as a pod sees it: a service-account directory (token, ca.crt, namespace)
 * and KUBERNETES_SERVICE_HOST/PORT. POST /api/v1/namespaces/<ns>/secrets answers as the API server
 * does: 201 with the object, 409 AlreadyExists, 403 Forbidden (`forbid`), `?dryRun=All` checks
 * without storing; `failWrites` makes real (not dry-run) creations fail with 500.
 */
export class KubernetesApi {
  readonly secrets = new Map<string, any>();
  readonly seen: SeenRequest[] = [];
  forbid = false;
  failWrites = 0;

  private constructor(
    private readonly server: Server,
    readonly serviceAccountDir: string,
    readonly namespace: string,
    private readonly token: string,
  ) {}

  static async start(namespace = 'auth'): Promise<KubernetesApi> {
    const dir = mkdtempSync(join(tmpdir(), 'sesame-k8s-'));
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'ca.crt'), '-days', '1',
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
    ], { stdio: 'ignore' }); // prettier-ignore
    const token = `token-${Date.now()}`;
    writeFileSync(join(dir, 'token'), `${token}\n`);
    writeFileSync(join(dir, 'namespace'), namespace);
    const server = createServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'ca.crt')) },
      (request, response) => {
        let text = '';
        request.on('data', (chunk) => (text += chunk));
        request.on('end', () => {
          const { status, body } = api.answer(request.method ?? '', request.url ?? '', request.headers.authorization, text);
          response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        });
      },
    );
    // Requests reach `api` only once the server listens, after this line.
    const api = new KubernetesApi(server, dir, namespace, token);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return api;
  }

  /** The environment of a pod of this cluster. */
  get env(): Record<string, string> {
    return {
      KUBERNETES_SERVICE_HOST: '127.0.0.1',
      KUBERNETES_SERVICE_PORT: String((this.server.address() as AddressInfo).port),
      SESAME_KUBERNETES_SERVICE_ACCOUNT_DIR: this.serviceAccountDir,
    };
  }

  private answer(method: string, url: string, authorization: string | undefined, text: string) {
    const body = text ? JSON.parse(text) : undefined;
    this.seen.push({ method, url, authorization, body });
    const status = (code: number, reason: string, message: string) => ({
      status: code,
      body: { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason, message, code },
    });
    const [path, query] = url.split('?');
    if (authorization !== `Bearer ${this.token}`) return status(401, 'Unauthorized', 'Unauthorized');
    if (method !== 'POST' || path !== `/api/v1/namespaces/${this.namespace}/secrets`)
      return status(404, 'NotFound', 'the server could not find the requested resource');
    const name = body.metadata.name as string;
    if (this.forbid)
      return status(
        403,
        'Forbidden',
        `secrets is forbidden: User "system:serviceaccount:${this.namespace}:x" cannot create resource "secrets" in API group "" in the namespace "${this.namespace}"`,
      );
    if (this.secrets.has(name)) return status(409, 'AlreadyExists', `secrets "${name}" already exists`);
    if (query === 'dryRun=All') return { status: 201, body: { ...body, data: {} } };
    if (this.failWrites > 0) {
      this.failWrites--;
      return status(500, 'InternalError', 'etcdserver: request timed out');
    }
    this.secrets.set(name, body);
    return { status: 201, body: { ...body, data: {} } };
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server.close(resolve));
  }
}
