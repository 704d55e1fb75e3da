import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

/** How the receiver answers a delivery to a path: a status (and headers), or `hold` to answer later. */
export type Answer = { status: number; headers?: Record<string, string> } | 'hold';
export type Behaviour = (attempt: number, delivery: ReceivedDelivery) => Answer;

/**
 * A real HTTP endpoint for webhook deliveries: records every request, answers as the behaviour
 * of its path says (200 by default), can hold answers to simulate a slow receiver.
 */
export class WebhookReceiver {
  readonly deliveries: ReceivedDelivery[] = [];
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly held: ServerResponse[] = [];

  private readonly server: Server;
  url = '';

  private constructor() {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => this.handle(request.url ?? '/', request.headers, Buffer.concat(chunks).toString('utf8'), response));
    });
  }

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
    return receiver;
  }

  on(path: string, behaviour: Behaviour): void {
    this.behaviours.set(path, behaviour);
  }

  to(path: string): ReceivedDelivery[] {
    return this.deliveries.filter((delivery) => delivery.path === path);
  }

  private handle(path: string, headers: IncomingHttpHeaders, body: string, response: ServerResponse): void {
    const delivery = { path, headers, body, receivedAt: Date.now() };
    this.deliveries.push(delivery);
    const behaviour = this.behaviours.get(path);
    const answer = behaviour ? behaviour(this.to(path).length, delivery) : { status: 200 };
    if (answer === 'hold') {
      this.held.push(response);
      return;
    }
    response.writeHead(answer.status, answer.headers).end('ok');
  }

  /** Answers every held request with `status` (connections already closed by the sender are skipped). */
  release(status = 200): void {
    for (const response of this.held.splice(0)) if (!response.destroyed) response.writeHead(status).end();
  }

  async stop(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
