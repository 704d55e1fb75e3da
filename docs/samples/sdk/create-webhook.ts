import { snippet } from './snippet';

export default snippet<'webhook_target'>(async (sesame, v) => {
  const webhook = await sesame.webhooks.create({
    name: 'CRM provisioning',
    event_codes: [
      'directory_sync.user.provisioning.success',
      'directory_sync.user.update.success',
      'directory_sync.user.deletion.success',
    ],
    target_url: `https://${v.webhook_target}/sesame`,
    active: true,
  });
  return webhook;
});
