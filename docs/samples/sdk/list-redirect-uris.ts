import { snippet } from './snippet';

export default snippet(async (sesame) => {
  const redirectUris = await sesame.redirectUris.list().toArray();
  return redirectUris;
});
