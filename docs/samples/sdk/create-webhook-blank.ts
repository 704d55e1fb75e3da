import { snippet } from './snippet';

export default snippet(async (sesame) => {
  // Rejects with a SesameApiError: status 422, fieldErrors { name, event_codes, target_url: ["can't be blank"] }
  await sesame.webhooks.create({ name: '', event_codes: [], target_url: '' });
});
