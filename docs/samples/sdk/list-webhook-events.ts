import { snippet } from './snippet';

export default snippet(async (sesame) => {
  const events = await sesame.webhookEvents.list({ per_page: 10 }).toArray();
  return events;
});
