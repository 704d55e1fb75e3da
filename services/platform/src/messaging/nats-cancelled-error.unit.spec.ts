import { ErrorCode, NatsError } from 'nats';
import { shareCancelledError } from './nats-cancelled-error';

describe('shareCancelledError', () => {
  it('makes the cancelled error once, and every other error anew', () => {
    shareCancelledError();
    shareCancelledError();
    const cancelled = NatsError.errorForCode(ErrorCode.Cancelled);
    expect(NatsError.errorForCode(ErrorCode.Cancelled)).toBe(cancelled);
    expect(cancelled).toBeInstanceOf(NatsError);
    expect(cancelled.code).toBe(ErrorCode.Cancelled);
    const timeout = NatsError.errorForCode(ErrorCode.Timeout);
    expect(NatsError.errorForCode(ErrorCode.Timeout)).not.toBe(timeout);
    expect(timeout.code).toBe(ErrorCode.Timeout);
    const cause = new Error('why');
    expect(NatsError.errorForCode(ErrorCode.Cancelled, cause)).not.toBe(cancelled);
  });
});
