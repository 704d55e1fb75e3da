import { Metrics } from '../metrics/metrics';
import { CountedSmsSender } from './sms-sender';
import type { SmsMessage } from './sms.port';
import { SmsDeliveryError } from './http.sms-sender';

describe('CountedSmsSender', () => {
  it('counts each message handed to the provider by outcome, and passes failures on', async () => {
    const metrics = new Metrics('auth-methods');
    let refuse = false;
    const sender = new CountedSmsSender(
      {
        send: async (message: SmsMessage) => {
          if (refuse) throw new SmsDeliveryError(401, 'bad token');
          return { ...message, id: 'sms-1', from: 'Sesame', sent_at: '2026-01-01T00:00:00.000Z', transport: 'http' };
        },
      },
      metrics,
    );
    await sender.send({ to: '+33612345678', text: 'code 123456' });
    await sender.send({ to: '+33612345678', text: 'code 654321' });
    refuse = true;
    await expect(sender.send({ to: '+33612345678', text: 'code 111111' })).rejects.toThrow('SMS provider answered 401');
    const counted = (await metrics.smsDeliveries.get()).values.map((v) => [v.labels.outcome, v.value]);
    expect(counted).toEqual([
      ['delivered', 2],
      ['failed', 1],
    ]);
    expect(await metrics.registry.metrics()).not.toContain('+33612345678');
  });
});
