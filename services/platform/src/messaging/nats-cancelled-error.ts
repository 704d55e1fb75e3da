import { ErrorCode, NatsError } from 'nats';

const original = NatsError.errorForCode.bind(NatsError);
let shared: NatsError | undefined;

/**
 * nats.js builds an error, stack trace and all, for every request it completes: once the answer
 * settled the request, `RequestOne.cancel` rejects its promise again with a new "cancelled" error
 * (a no-op on a settled promise). Every JetStream publish and message get is such a request: 4 to 6 %
 * of each process's CPU under load (`bench/profile-path.ts scim-post-user`). The cancelled error is
 * made once and shared from then on; only a request's cancellation uses that code, and nothing of
 * Sesame's cancels a request or reads that error's stack. Other codes are untouched.
 */
export function shareCancelledError(): void {
  if (shared) return;
  shared = original(ErrorCode.Cancelled);
  NatsError.errorForCode = (code: string, chainedError?: Error): NatsError =>
    code === ErrorCode.Cancelled && !chainedError ? (shared as NatsError) : original(code, chainedError);
}
