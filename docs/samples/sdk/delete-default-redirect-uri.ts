import { snippet } from './snippet';

export default snippet<'redirect_uri_id'>(async (sesame, v) => {
  // Rejects with a SesameApiError: status 422, fieldErrors { default: ['Can not remove a default Redirection'] }
  await sesame.redirectUris.delete(v.redirect_uri_id);
});
