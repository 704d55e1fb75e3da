import { snippet } from './snippet';

export default snippet(async (sesame) => {
  // Rejects with a SesameApiError: status 404, type 'resource_not_found'
  await sesame.webhookEvents.retry(999999999);
});
