import type { JsMsg } from 'nats';

/**
 * Tells the server a JetStream message is still being worked on, every third of its ack wait, so
 * that long work keeps it; a message whose process dies is redelivered after the ack wait. Returns
 * the function that stops telling.
 */
export function keepInProgress(message: JsMsg, ackWaitMs: number): () => void {
  const heartbeat = setInterval(() => {
    try {
      message.working();
    } catch {
      /* connection gone: the message is redelivered after the ack wait */
    }
  }, ackWaitMs / 3);
  return () => clearInterval(heartbeat);
}
