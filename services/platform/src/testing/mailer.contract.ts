import type { MailMessage, Mailer, SentMail } from '../mail/mail.port';

/**
 * What every mail adapter must do (outbox, SMTP): deliver the message as given and answer it
 * with an id, the sender and the time. `delivered` reads back what the adapter's peer received.
 */
export function mailerContract(
  open: () => Promise<{ mailer: Mailer; delivered(to: string): Promise<Partial<SentMail>[]> }>,
  close: () => Promise<void>,
) {
  let subject: Awaited<ReturnType<typeof open>>;
  beforeAll(async () => {
    subject = await open();
  });
  afterAll(close);

  const message: MailMessage = {
    to: 'ada@example.com',
    subject: 'Your sign-in link',
    text: 'Open https://sesame.example/link?token=abc',
    html: '<p><a href="https://sesame.example/link?token=abc">Sign in</a></p>',
    links: [{ rel: 'magic-link', url: 'https://sesame.example/link?token=abc' }],
    tags: ['magic-link', 'acme'],
  };

  it('sends a message and answers it with an id, the sender and the time', async () => {
    const sent = await subject.mailer.send(message);
    expect(sent).toMatchObject({ ...message, id: expect.stringMatching(/^[0-9a-f-]{36}$/), from: expect.any(String) });
    expect(Date.parse(sent.sent_at)).not.toBeNaN();
    const delivered = await subject.delivered('ada@example.com');
    expect(delivered.at(-1)).toMatchObject({ to: 'ada@example.com', subject: 'Your sign-in link', text: message.text });
  });

  it('keeps messages to different recipients apart', async () => {
    await subject.mailer.send({ ...message, to: 'grace@example.com', subject: 'Other' });
    expect((await subject.delivered('grace@example.com')).map((mail) => mail.subject)).toEqual(['Other']);
  });
}
