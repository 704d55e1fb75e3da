import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

export interface ConnectProxyOptions {
  /** `user:password` the proxy requires (Proxy-Authorization: Basic); none by default. */
  credentials?: string;
  /**
   * Where a tunnel to `host:port` really goes, as the network behind a proxy would route it (tests
   * map a public address to a local receiver); default: where it says.
   */
  route?: (authority: string) => string;
}

export interface ProxiedRequest {
  method: string;
  /** `host:port` of a CONNECT, or the absolute URI of a plain request. */
  target: string;
  authorization: string | undefined;
}

const splitAuthority = (authority: string): [string, number] => {
  const match = /^\[?([^\]]*)\]?:(\d+)$/.exec(authority);
  if (!match) throw new Error(`not host:port: ${authority}`);
  return [match[1] as string, Number(match[2])];
};

/**
 * A real forward proxy for the outbound HTTP tests: HTTP CONNECT tunnels (what Sesame's outbound
 * agent asks for, https:// and http:// targets alike). Records every request; answers 407 without
 * the expected credentials and 405 to anything but CONNECT.
 */
export class ConnectProxy {
  readonly requests: ProxiedRequest[] = [];
  url = '';
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;

  private constructor(private readonly options: ConnectProxyOptions) {
    this.server = createServer((request, response) => {
      this.record(request);
      response.writeHead(405).end();
    });
    this.server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => this.tunnel(request, client, head));
    this.server.on('connection', (socket: Socket) => this.track(socket));
  }

  static async start(options: ConnectProxyOptions = {}): Promise<ConnectProxy> {
    const proxy = new ConnectProxy(options);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    proxy.url = `http://127.0.0.1:${(proxy.server.address() as AddressInfo).port}`;
    return proxy;
  }

  /** The CONNECT targets asked for, in order. */
  get tunnels(): string[] {
    return this.requests.filter((request) => request.method === 'CONNECT').map((request) => request.target);
  }

  private record(request: IncomingMessage): void {
    const authorization = request.headers['proxy-authorization'];
    this.requests.push({ method: request.method ?? '', target: request.url ?? '', authorization });
  }

  private tunnel(request: IncomingMessage, client: Socket, head: Buffer): void {
    this.record(request);
    const expected = this.options.credentials && `Basic ${Buffer.from(this.options.credentials).toString('base64')}`;
    if (expected && request.headers['proxy-authorization'] !== expected)
      return void client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\n\r\n');
    const [host, port] = splitAuthority((this.options.route ?? ((authority) => authority))(request.url ?? ''));
    const upstream = this.track(connect(port, host));
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    upstream.once('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    client.once('error', () => upstream.destroy());
  }

  private track(socket: Socket): Socket {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    return socket;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/**
 * Runs `create` while the process has these environment variables, under their upper- and lower-case
 * names (HTTP_PROXY and http_proxy: the machine's own settings must not interfere), e.g. the proxy
 * variables an outbound agent reads when it is made; then puts the previous values back.
 */
export function createdWith<T>(env: Record<string, string>, create: () => T): T {
  const names = Object.keys(env).flatMap((name) => [name.toUpperCase(), name.toLowerCase()]);
  const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
  for (const [name, value] of Object.entries(env)) {
    process.env[name.toUpperCase()] = value;
    process.env[name.toLowerCase()] = value;
  }
  try {
    return create();
  } finally {
    for (const [name, value] of Object.entries(saved))
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
  }
}
