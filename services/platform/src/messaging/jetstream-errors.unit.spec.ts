import { isJetStreamWriteConflict, jetStreamErrorCode } from './jetstream-errors';

/** How nats.js rejects a JetStream publish the server refused (NatsError with the API error). */
const refused = (code: number, description: string) =>
  Object.assign(new Error(description), {
    name: 'NatsError',
    code: '400',
    api_error: { code: 400, err_code: code, description },
  });

describe('JetStream write conflicts', () => {
  it('counts a write over a sequence that is no longer the last as a conflict', () => {
    expect(isJetStreamWriteConflict(refused(10071, 'wrong last sequence: 41'))).toBe(true);
  });

  it('counts a write whose message id another writer is storing right now as a conflict (nats-server 2.10 and later)', () => {
    expect(isJetStreamWriteConflict(refused(10158, 'duplicate message id is in process'))).toBe(true);
  });

  it('does not count other refusals, timeouts or non-errors', () => {
    expect(isJetStreamWriteConflict(refused(10059, 'stream not found'))).toBe(false);
    expect(isJetStreamWriteConflict(Object.assign(new Error('TIMEOUT'), { code: 'TIMEOUT' }))).toBe(false);
    expect(isJetStreamWriteConflict(null)).toBe(false);
    expect(isJetStreamWriteConflict('wrong last sequence')).toBe(false);
  });

  it('reads the API error code of a refusal, and nothing of anything else', () => {
    expect(jetStreamErrorCode(refused(10158, 'duplicate message id is in process'))).toBe(10158);
    expect(jetStreamErrorCode(new Error('no api error'))).toBeUndefined();
    expect(jetStreamErrorCode(undefined)).toBeUndefined();
  });
});
