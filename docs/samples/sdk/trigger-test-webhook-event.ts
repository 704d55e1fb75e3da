import { snippet } from './snippet';

export default snippet(async (sesame) => {
  const event = await sesame.webhookEvents.triggerTest({ event_code: 'directory_sync.user.provisioning.success' });
  return event;
});
