import type { JsMsg } from 'nats';

/**
 * Tells the server a JetStream message is still being worked on, every third of its ack wait, so
 * that long work keeps it; a message whose process dies is redelivered after the ack wait, and so
 * is one whose consumer stops (`stopped` answers true: its work is given up). Returns the function
 * that stops telling.
 */
export function keepInProgress(message: JsMsg, ackWaitMs: number, stopped: () => boolean = () => false): () => void {
  const heartbeat = setInterval(() => {
    if (stopped()) {
      clearInterval(heartbeat);
      return;
    }
    try {
      message.working();
    } catch {
      /* connection gone: the message is redelivered after the ack wait */
    }
  }, ackWaitMs / 3);
  return () => clearInterval(heartbeat);
}
