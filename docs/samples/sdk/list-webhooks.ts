import { snippet } from './snippet';

export default snippet(async (sesame) => {
  const webhooks = await sesame.webhooks.list().toArray();
  return webhooks;
});
