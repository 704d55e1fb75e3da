import { snippet } from './snippet';

export default snippet(async (sesame) => {
  const relays = await sesame.relays.list().toArray();
  return relays;
});
