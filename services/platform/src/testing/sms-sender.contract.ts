import type { SentSms, SmsMessage, SmsSender } from '../sms/sms.port';

/**
 * What every SMS adapter must do (outbox, HTTP provider): deliver the text as given and answer
 * it with an id, the sender and the time. `delivered` reads back what the adapter's peer received.
 */
export function smsSenderContract(
  open: () => Promise<{ sender: SmsSender; delivered(to: string): Promise<Partial<SentSms>[]> }>,
  close: () => Promise<void>,
) {
  let subject: Awaited<ReturnType<typeof open>>;
  beforeAll(async () => {
    subject = await open();
  });
  afterAll(close);

  const message: SmsMessage = { to: '+33612345678', text: 'Your Sesame code is 123456', tags: ['totp', 'acme'] };

  it('sends a text and answers it with an id, the sender and the time', async () => {
    const sent = await subject.sender.send(message);
    expect(sent).toMatchObject({ ...message, id: expect.stringMatching(/^[0-9a-f-]{36}$/), from: expect.any(String) });
    expect(Date.parse(sent.sent_at)).not.toBeNaN();
    expect((await subject.delivered('+33612345678')).at(-1)).toMatchObject({ to: '+33612345678', text: message.text });
  });

  it('keeps texts to different numbers apart', async () => {
    await subject.sender.send({ ...message, to: '+14155550100', text: 'Other' });
    expect((await subject.delivered('+14155550100')).map((sms) => sms.text)).toEqual(['Other']);
  });
}
