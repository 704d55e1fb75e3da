import { snippet } from './snippet';

export default snippet(async (sesame) => {
  const connections = await sesame.ssoConnections.list().toArray();
  return connections;
});
