import { snippet } from './snippet';

export default snippet<'webhook_id'>(async (sesame, v) => {
  const webhook = await sesame.webhooks.get(v.webhook_id);
  return webhook;
});
