import { connect } from 'nats';
import type { ConnectionOptions } from 'nats';

/**
 * What the webhook jobs bucket holds of events that got two jobs: for each, the event's marker as
 * stored (its sequence, time and the headers it was written with) and each job's last write. A job's
 * id is the sequence at which the marker was created, and the job store writes a marker only over
 * nothing (`Nats-Expected-Last-Subject-Sequence: 0`, message id `<key>@0`): a marker whose sequence
 * is the later job's while the earlier job's sequence also created it is a write the server should
 * have refused twice over (expected sequence, duplicate window).
 */
export async function duplicateJobEvidence(
  options: ConnectionOptions,
  bucket: string,
  webhookId: string,
  duplicates: { eventId: string; jobIds: number[] }[],
): Promise<unknown[]> {
  const nc = await connect(options);
  try {
    const jsm = await nc.jetstreamManager();
    const stream = `KV_${bucket}`;
    const last = async (key: string) => {
      const message = await jsm.streams.getMessage(stream, { last_by_subj: `$KV.${bucket}.${key}` }).catch(String);
      if (typeof message === 'string') return { key, error: message };
      const headers = Object.fromEntries([...(message.header?.keys() ?? [])].map((name) => [name, message.header?.get(name)]));
      return { key, seq: message.seq, time: message.time.toISOString(), headers };
    };
    return await Promise.all(
      duplicates.map(async ({ eventId, jobIds }) => ({
        eventId,
        marker: await last(`event.${webhookId}.${eventId.replace(/[^A-Za-z0-9_-]/g, '_')}`),
        jobs: await Promise.all(jobIds.map((id) => last(`job.${id}`))),
      })),
    );
  } finally {
    await nc.close();
  }
}
