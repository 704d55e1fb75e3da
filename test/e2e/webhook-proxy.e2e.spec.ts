import { ConnectProxy } from '@sesame/platform/testing';
import { System } from '../support/system';
import { eventually } from '../support/identity-fixtures';
import { WebhookReceiver } from '../support/webhook-receiver';

const long = 60_000;

/**
 * The webhooks process started with HTTP_PROXY and NO_PROXY (as the chart's `proxy` values set them):
 * its deliveries go through a real CONNECT proxy, except to the receiver NO_PROXY names.
 */
describe('Webhook deliveries through an outbound proxy (all processes, real NATS, real proxy)', () => {
  let system: System;
  let proxied: WebhookReceiver;
  let direct: WebhookReceiver;
  let proxy: ConnectProxy;
  beforeAll(async () => {
    proxied = await WebhookReceiver.start();
    direct = await WebhookReceiver.start();
    proxy = await ConnectProxy.start({ credentials: 'sesame:s3cret' });
    const proxyUrl = proxy.url.replace('http://', 'http://sesame:s3cret@');
    system = await System.start({
      processEnv: {
        webhooks: {
          HTTP_PROXY: proxyUrl,
          HTTPS_PROXY: proxyUrl,
          NO_PROXY: `example.org,${new URL(direct.url).host}`,
          SESAME_WEBHOOK_POLL_MS: '100',
        },
      },
    });
  });
  afterAll(async () => {
    await system?.stop();
    await proxy?.stop();
    await proxied?.stop();
    await direct?.stop();
  });

  const createWebhook = async (url: string) => {
    const { status, body } = await system.request('POST', '/api/v2/webhooks', {
      body: { name: url, event_codes: ['organization.created'], target_url: url },
    });
    expect(status).toBe(201);
    return body as { id: string };
  };

  it('sends a delivery through the proxy, and one to a target NO_PROXY names directly', async () => {
    await createWebhook(`${proxied.url}/through-proxy`);
    await createWebhook(`${direct.url}/no-proxy`);
    const triggered = await system.request('POST', '/api/v2/webhook-events/trigger-test', {
      body: { event_code: 'organization.created' },
    });
    expect(triggered.status).toBe(201);
    await eventually(async () => proxied.to('/through-proxy').length > 0 && direct.to('/no-proxy').length > 0, long);
    expect(proxy.tunnels).toEqual([new URL(proxied.url).host]);
    expect(proxy.requests[0]?.authorization).toBe(`Basic ${Buffer.from('sesame:s3cret').toString('base64')}`);
    expect(proxied.to('/through-proxy')[0]?.headers['proxy-authorization']).toBeUndefined();
  });
});
