/**
 * The gateway and the platform's root entry load no store or mail driver: they are loaded only by
 * the subpath of their adapter (`@sesame/platform/event-store`, `/read-model`), and nodemailer only
 * when a message is sent. Each driver is replaced by a stand-in that records its loading.
 */
const mockLoaded: string[] = [];
const mockSent: unknown[] = [];
jest.mock('@eventstore/db-client', () => (mockLoaded.push('@eventstore/db-client'), {}));
jest.mock('mongodb', () => (mockLoaded.push('mongodb'), {}));
jest.mock('nodemailer', () => {
  mockLoaded.push('nodemailer');
  return { createTransport: () => ({ sendMail: async (mail: unknown) => void mockSent.push(mail), close: () => undefined }) };
});

describe('what importing an entry loads', () => {
  beforeEach(() => {
    jest.resetModules();
    mockLoaded.length = 0;
  });

  it('the gateway entry and the platform root load no database or mail driver', async () => {
    await jest.isolateModulesAsync(async () => {
      await import('./index.js');
      await import('@sesame/platform');
      await import('@sesame/platform/mail');
    });
    expect(mockLoaded).toEqual([]);
  });

  it('the adapter subpaths load their driver', async () => {
    await jest.isolateModulesAsync(async () => {
      await import('@sesame/platform/event-store');
      await import('@sesame/platform/read-model');
    });
    expect(mockLoaded).toEqual(['@eventstore/db-client', 'mongodb']);
  });

  it('SMTP loads nodemailer at its first message', async () => {
    const { SmtpTransport } = jest.requireActual<typeof import('@sesame/platform/mail')>('@sesame/platform/mail');
    const { createLogger, stampMail } = jest.requireActual<typeof import('@sesame/platform')>('@sesame/platform');
    const transport = new SmtpTransport('smtp://127.0.0.1:2525', createLogger('test', 'silent'));
    expect(mockLoaded).toEqual([]);
    const mail = stampMail({ to: 'c@d.co', subject: 'Hi', text: 'Hello' }, 'a@b.co', 'smtp');
    await transport.deliver(mail);
    expect(mockLoaded).toEqual(['nodemailer']);
    expect(mockSent).toMatchObject([{ to: 'c@d.co', subject: 'Hi', messageId: `<${mail.id}@sesame>` }]);
    transport.close();
  });
});
