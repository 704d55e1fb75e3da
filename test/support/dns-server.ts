import dns2 from 'dns2';

/** Response codes of RFC 1035 section 4.1.1 (dns2's types do not declare its `Packet.RCODE`). */
const rcodes = { serverFailure: 2, nameError: 3 } as const;

/**
 * A DNS server of the test's own on 127.0.0.1 (UDP, a free port): it answers the TXT records the
 * test publishes, NXDOMAIN for every other name, and SERVFAIL for the names the test breaks.
 * `server` is what `SESAME_DNS_SERVERS` names.
 */
export class LocalDnsServer {
  private readonly records = new Map<string, string[][]>();
  private readonly failing = new Set<string>();
  /** Every TXT question asked, in order (what the identity service looked up). */
  readonly questions: string[] = [];

  private constructor(
    private readonly dns: ReturnType<typeof dns2.createServer>,
    readonly server: string,
  ) {}

  static async start(): Promise<LocalDnsServer> {
    // The server answers through the instance, made once its port is known.
    const holder: { instance?: LocalDnsServer } = {};
    const dns = dns2.createServer({
      udp: true,
      handle: (request, send) => holder.instance?.answer(request, send),
    });
    const addresses = await dns.listen({ udp: { port: 0, address: '127.0.0.1' } });
    holder.instance = new LocalDnsServer(dns, `127.0.0.1:${addresses.udp?.port}`);
    return holder.instance;
  }

  /** Publishes a TXT record at `name` (its value as one string, or as the strings of a long record). */
  publishTxt(name: string, value: string | string[]): void {
    const key = name.toLowerCase();
    this.records.set(key, [...(this.records.get(key) ?? []), Array.isArray(value) ? value : [value]]);
  }

  /** Removes every record at `name`, and mends it if it was broken. */
  remove(name: string): void {
    this.records.delete(name.toLowerCase());
    this.failing.delete(name.toLowerCase());
  }

  /** Answers SERVFAIL for `name` (a broken authoritative server). */
  breakName(name: string): void {
    this.failing.add(name.toLowerCase());
  }

  async stop(): Promise<void> {
    await this.dns.close();
  }

  private answer(request: dns2.Packet, send: (response: dns2.Packet) => unknown): void {
    const response = dns2.Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    const name = (question?.name ?? '').toLowerCase();
    if (question?.type === dns2.Packet.TYPE.TXT) this.questions.push(name);
    const records = this.records.get(name);
    if (this.failing.has(name)) response.header.rcode = rcodes.serverFailure;
    else if (!records) response.header.rcode = rcodes.nameError;
    else if (question?.type === dns2.Packet.TYPE.TXT)
      for (const data of records)
        response.answers.push({
          name: question.name,
          type: dns2.Packet.TYPE.TXT,
          class: dns2.Packet.CLASS.IN,
          ttl: 1,
          data,
        } as never);
    void send(response);
  }
}
