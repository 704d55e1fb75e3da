import { snippet } from './snippet';

export default snippet<'webhook_id'>(async (sesame, v) => {
  const deleted = await sesame.webhooks.delete(v.webhook_id);
  return deleted;
});
