/** The JetStream API error code of a failed request (`api_error.err_code`), if it is one. */
export function jetStreamErrorCode(error: unknown): number | undefined {
  return (error as { api_error?: { err_code?: number } } | null)?.api_error?.err_code;
}

/** `wrong last sequence`: the expected last (subject) sequence of a write is no longer the last. */
const wrongLastSequence = 10071;
/**
 * `duplicate message id is in process`: a write with the same `Nats-Msg-Id` is being stored right
 * now (nats-server 2.10.x and later answer this where 2.9 dropped the second as a duplicate).
 */
const duplicateMessageIdInProcess = 10158;

/**
 * Another writer moved first: a compare-and-set write lost its race, either to a write already
 * stored (wrong last sequence) or to one still being stored under the same message id (the event
 * store and the job store name the revision they write over in `Nats-Msg-Id`).
 */
export function isJetStreamWriteConflict(error: unknown): boolean {
  const code = jetStreamErrorCode(error);
  return code === wrongLastSequence || code === duplicateMessageIdInProcess;
}
