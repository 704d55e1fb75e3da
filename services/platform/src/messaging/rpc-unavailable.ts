/** No answer to a request over NATS: nobody serves the subject, or not in time. */
export class RpcUnavailableError extends Error {
  constructor(subject: string, cause: unknown) {
    super(`No answer on ${subject}: ${String((cause as Error)?.message ?? cause)}`);
    this.name = 'RpcUnavailableError';
  }
}
