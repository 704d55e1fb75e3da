import { snippet } from './snippet';

export default snippet<'relay_id'>(async (sesame, v) => {
  const deleted = await sesame.relays.delete(v.relay_id);
  return deleted;
});
