import type { JetStreamClient } from 'nats';
import { idempotencyBucket, isKeptAnswer } from '@sesame/contracts';
import type { IdempotencyRecord, IdempotencyTicket, RpcMeta, RpcReply } from '@sesame/contracts';
import type { Logger } from '../logging/logger';

/** The ticket a service stores its answer under: the request's, when `subject` is the operation it was claimed for. */
export function ticketToAnswer(subject: string, meta: RpcMeta | undefined, answer: RpcReply): IdempotencyTicket | undefined {
  const ticket = meta?.idempotency;
  if (!ticket || ticket.subject !== subject || !isKeptAnswer(answer)) return undefined;
  return ticket;
}

/**
 * Stores a service's answer to a request sent with `Idempotency-Key` in the gateways' key-value
 * bucket before the service replies (DESIGN.md section 1: the gateway keeps no state a crash can
 * lose). The write expects the claim's revision, so a key taken over meanwhile is left alone.
 * A failed write only loses the shortcut: the gateway then stores the answer itself.
 */
export class IdempotentAnswers {
  constructor(
    private readonly js: JetStreamClient,
    private readonly prefix: string,
    private readonly logger: Logger,
  ) {}

  async store(subject: string, meta: RpcMeta | undefined, answer: RpcReply): Promise<RpcReply> {
    const ticket = ticketToAnswer(subject, meta, answer);
    if (!ticket) return answer;
    const record: IdempotencyRecord = { state: 'done', fingerprint: ticket.fingerprint, answer };
    try {
      await this.js.publish(`$KV.${idempotencyBucket(this.prefix)}.${ticket.key}`, JSON.stringify(record), {
        expect: { lastSubjectSequence: ticket.revision },
      });
      return { ...answer, answerStored: true };
    } catch (error) {
      this.logger.warn({ err: error, correlationId: meta?.correlationId }, 'idempotent answer not stored by the service');
      return answer;
    }
  }
}
