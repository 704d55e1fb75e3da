import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { SMTPServer } from 'smtp-server';
import { createLogger } from '../logging/logger';
import { Metrics } from '../metrics/metrics';
import { mailerContract } from '../testing/mailer.contract';
import { testNatsUrl, testPrefix } from '../testing/test-prefix';
import type { SentMail } from './mail.port';
import { QueuedMailer, mailQueueStreamName } from './queued.mailer';
import { SmtpTransport } from './smtp.transport';

const from = 'Sesame <no-reply@sesame.test>';
const silent = createLogger('test', 'silent');
const until = async <T>(read: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

/** A real SMTP peer (the `smtp-server` package) on loopback: keeps what it accepts, refuses or holds on demand. */
class SmtpPeer {
  readonly received: { to: string; raw: string }[] = [];
  readonly attempts = new Map<string, number>();
  /** Per recipient: the reply codes of its first attempts (451 temporary, 550 permanent). */
  readonly refusals = new Map<string, number[]>();
  /** Messages to these recipients wait until released. */
  readonly held = new Map<string, () => void>();
  private readonly holds = new Map<string, Promise<void>>();
  private server!: SMTPServer;
  url = '';

  hold(to: string): void {
    this.holds.set(to, new Promise<void>((resolve) => this.held.set(to, resolve)));
  }

  async start(): Promise<void> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData: (stream, session, callback) => {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
        stream.on('end', () => void this.accept(session.envelope.rcptTo[0]?.address ?? '', raw).then(() => callback(), callback));
      },
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }

  private async accept(to: string, raw: string): Promise<void> {
    const attempt = (this.attempts.get(to) ?? 0) + 1;
    this.attempts.set(to, attempt);
    await this.holds.get(to);
    const refusal = this.refusals.get(to)?.[attempt - 1];
    if (refusal) throw Object.assign(new Error(`refused with ${refusal}`), { responseCode: refusal });
    this.received.push({ to, raw });
  }

  delivered = (to: string) => this.received.filter((mail) => mail.to === to);

  stop = () => new Promise<void>((resolve) => this.server.close(() => resolve()));
}

describe('QueuedMailer over SMTP (real NATS work queue, real SMTP peer)', () => {
  const prefix = testPrefix('mailq');
  const peer = new SmtpPeer();
  let nc: NatsConnection;
  const errors: string[] = [];
  const logger = createLogger('test', 'silent');
  jest.spyOn(logger, 'error').mockImplementation(((...args: unknown[]) => void errors.push(JSON.stringify(args))) as never);
  /** Every mailer of a deployment shares the queue's consumer, so its settings too. */
  const options = { ackWaitMs: 1_000, maxAttempts: 3, retryDelayMs: () => 100 };
  let mailer: QueuedMailer;
  const metrics = new Metrics('test');
  const delivered = async () =>
    Object.fromEntries((await metrics.mailDeliveries.get()).values.map((v) => [v.labels.outcome, v.value]));
  const depth = async () => /^sesame_mail_queue_depth\{process="test"\} (\S+)$/m.exec(await metrics.registry.metrics())?.[1];
  const queued = async () => (await (await nc.jetstreamManager()).streams.info(mailQueueStreamName(prefix))).state.messages;

  beforeAll(async () => {
    nc = await connect({ servers: testNatsUrl() });
    await peer.start();
    mailer = new QueuedMailer(nc, prefix, from, new SmtpTransport(peer.url, logger), logger, { ...options, metrics });
    mailer.start();
  });
  afterAll(async () => {
    await mailer.stop();
    await (await nc.jetstreamManager()).streams.delete(mailQueueStreamName(prefix)).catch(() => undefined);
    await nc.close();
    await peer.stop();
  });

  mailerContract(
    async () => ({
      mailer,
      delivered: async (to: string): Promise<Partial<SentMail>[]> => {
        await until(() => (peer.delivered(to).length > 0 ? true : undefined), `mail to ${to}`);
        return peer.delivered(to).map((mail) => ({
          to,
          subject: /^Subject: (.*)$/m.exec(mail.raw)?.[1]?.trim(),
          text: decodeText(mail.raw),
        }));
      },
    }),
    async () => undefined,
  );

  it('sends the id as Message-ID, the tags as a header and the HTML part', async () => {
    const sent = await mailer.send({
      to: 'tags@example.com',
      subject: 'Tagged',
      text: 'plain',
      html: '<b>rich</b>',
      tags: ['a', 'b'],
    });
    const [mail] = await until(
      () => (peer.delivered('tags@example.com').length ? peer.delivered('tags@example.com') : undefined),
      'tags',
    );
    expect(sent.transport).toBe('smtp');
    expect(mail?.raw).toContain(`Message-ID: <${sent.id}@sesame>`);
    expect(mail?.raw).toContain('X-Sesame-Tags: a,b');
    expect(mail?.raw).toContain('<b>rich</b>');
  });

  it('answers before the mail server has the message: a server that holds it does not hold the sender', async () => {
    peer.hold('slow@example.com');
    await mailer.send({ to: 'slow@example.com', subject: 'Slow', text: 't' });
    await until(() => peer.attempts.get('slow@example.com'), 'the held attempt');
    expect(peer.delivered('slow@example.com')).toEqual([]);
    peer.held.get('slow@example.com')?.();
    await until(() => (peer.delivered('slow@example.com').length === 1 ? true : undefined), 'the released mail');
  });

  it('tries again after temporary refusals (4xx) and delivers once', async () => {
    peer.refusals.set('retry@example.com', [451, 421]);
    await mailer.send({ to: 'retry@example.com', subject: 'Retried', text: 't' });
    await until(() => (peer.delivered('retry@example.com').length ? true : undefined), 'the retried mail');
    expect(peer.attempts.get('retry@example.com')).toBe(3);
    await until(async () => ((await queued()) === 0 ? true : undefined), 'an empty queue');
  });

  it('drops a message refused permanently (5xx) at once, and one failing every attempt after the last, logging why', async () => {
    peer.refusals.set('refused@example.com', [550, 550, 550, 550]);
    peer.refusals.set('failing@example.com', [451, 451, 451, 451]);
    await mailer.send({ to: 'refused@example.com', subject: 'Refused', text: 't' });
    await mailer.send({ to: 'failing@example.com', subject: 'Failing', text: 't' });
    await until(() => (errors.length === 2 ? true : undefined), 'two dropped mails');
    expect(errors.join()).toContain('refused@example.com');
    expect(errors.join()).toContain('failing@example.com');
    expect(errors[0]).toContain('mail dropped');
    await mailer.send({ to: 'after@example.com', subject: 'After', text: 't' });
    await until(() => (peer.delivered('after@example.com').length ? true : undefined), 'the next mail');
    expect(peer.attempts.get('refused@example.com')).toBe(1);
    expect(peer.attempts.get('failing@example.com')).toBe(3);
    await until(async () => ((await queued()) === 0 ? true : undefined), 'an empty queue');
  });

  it('counts deliveries by outcome and shows the queue depth (waiting and being delivered) at each scrape', async () => {
    await until(async () => ((await queued()) === 0 ? true : undefined), 'an empty queue');
    const before = await delivered();
    expect(await depth()).toBe('0');
    peer.hold('depth@example.com');
    peer.refusals.set('counted@example.com', [451]);
    peer.refusals.set('gone@example.com', [550]);
    await mailer.send({ to: 'depth@example.com', subject: 'Depth', text: 't' });
    await until(() => peer.attempts.get('depth@example.com'), 'the held attempt');
    await mailer.send({ to: 'counted@example.com', subject: 'Counted', text: 't' });
    await mailer.send({ to: 'gone@example.com', subject: 'Gone', text: 't' });
    expect(await depth()).toBe('3');
    peer.held.get('depth@example.com')?.();
    await until(async () => ((await depth()) === '0' ? true : undefined), 'the queue to empty');
    const after = await delivered();
    const increase = (outcome: string) => (after[outcome] ?? 0) - (before[outcome] ?? 0);
    expect({ delivered: increase('delivered'), retried: increase('retried'), dropped: increase('dropped') }).toEqual({
      delivered: 2,
      retried: 1,
      dropped: 1,
    });
  });

  it('delivers a message whose process died while sending it, through another process, after the ack wait', async () => {
    await mailer.stop(); // the other processes: one that dies, one that survives
    const stalled = await blackhole();
    const dying = await connect({ servers: testNatsUrl() });
    const survivorConnection = await connect({ servers: testNatsUrl() });
    try {
      const doomed = new QueuedMailer(dying, prefix, from, new SmtpTransport(stalled.url, silent), silent, options);
      doomed.start();
      await doomed.send({ to: 'orphan@example.com', subject: 'Orphan', text: 't' });
      await until(() => (stalled.sockets.length > 0 ? true : undefined), 'the dying process to take the message');
      await dying.close();
      const survivor = new QueuedMailer(survivorConnection, prefix, from, new SmtpTransport(peer.url, silent), silent, options);
      survivor.start();
      await until(() => (peer.delivered('orphan@example.com').length ? true : undefined), 'the orphaned mail');
      await survivor.stop();
    } finally {
      stalled.close();
      await survivorConnection.close();
    }
  });
});

/** A TCP server that accepts connections and never answers: an SMTP server stalled before its greeting. */
async function blackhole(): Promise<{ url: string; sockets: Socket[]; close(): void }> {
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sockets,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

/** The text/plain part of a MIME message (quoted-printable soft breaks undone). */
function decodeText(raw: string): string {
  const part = /Content-Type: text\/plain[^]*?\r?\n\r?\n([^]*?)(?:\r?\n--|$)/.exec(raw)?.[1] ?? '';
  return part
    .replace(/=\r?\n/g, '')
    .replace(/=3D/g, '=')
    .trim();
}
