import { snippet } from './snippet';

export default snippet<'relay_id'>(async (sesame, v) => {
  // Rejects with a SesameApiError: status 422, type 'missing_access_token'
  await sesame.relays.request(v.relay_id, {});
});
