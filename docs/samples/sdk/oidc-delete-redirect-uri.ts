import { snippet } from './snippet';

export default snippet<'redirect_uri_id'>(async (sesame, v) => {
  const deleted = await sesame.redirectUris.delete(v.redirect_uri_id);
  return deleted;
});
