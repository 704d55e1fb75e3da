import { snippet } from './snippet';

export default snippet<'webhook_id'>(async (sesame, v) => {
  const webhook = await sesame.webhooks.update(v.webhook_id, { active: false });
  return webhook;
});
