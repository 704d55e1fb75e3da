import type { RpcMeta, RpcReply } from '@sesame/contracts';
import { ticketToAnswer } from './idempotent-answers';

const ticket = { key: 'k', revision: 3, fingerprint: 'f', subject: 'identity.organizations.create' };
const meta: RpcMeta = { correlationId: 'c', idempotency: ticket };
const created: RpcReply = { ok: true, status: 201, body: { id: 'o1' } };
const refused: RpcReply = { ok: false, error: { kind: 'fields', fields: { name: ["can't be blank"] } } };
const failed: RpcReply = { ok: false, error: { kind: 'error', code: 'internal_server_error' } };

describe('ticketToAnswer: which answer a service stores under an idempotency key', () => {
  it('given a keyed request to this operation, when it answers 2xx or 4xx, then the answer is stored under its ticket', () => {
    expect(ticketToAnswer(ticket.subject, meta, created)).toEqual(ticket);
    expect(ticketToAnswer(ticket.subject, meta, refused)).toEqual(ticket);
  });

  it('given a keyed request, when it answers 5xx, then nothing is stored (a retry does the work)', () => {
    expect(ticketToAnswer(ticket.subject, meta, failed)).toBeUndefined();
  });

  it('given a service called further down the same request (another subject), then it stores nothing', () => {
    expect(ticketToAnswer('identity.users.create', meta, created)).toBeUndefined();
  });

  it('given a request without Idempotency-Key, then nothing is stored', () => {
    expect(ticketToAnswer(ticket.subject, { correlationId: 'c' }, created)).toBeUndefined();
    expect(ticketToAnswer(ticket.subject, undefined, created)).toBeUndefined();
  });
});
