import {
  catalogueError,
  consistencyTokenHeader,
  encodeConsistencyToken,
  errorCatalogue,
  fieldErrorsFromZod,
  oauthErrorCatalogue,
  z,
} from '@sesame/contracts';
import type { Operation, OperationInput, OperationResult, RpcMeta, RpcReply, RpcRequest } from '@sesame/contracts';
import { DomainError } from '../decider/decider';
import type { Logger } from '../logging/logger';
import type { Metrics } from '../metrics/metrics';
import { requestLogger } from '../logging/logger';
import { failure } from './replies';
import { trackingAppends } from '../event-store/append-scope';

export interface RequestContext {
  meta: RpcMeta;
  logger: Logger;
}

/** Sees each reply to a subject with the request's input, unvalidated (metrics of one subject). */
export type ReplyListener = (reply: RpcReply, input: unknown) => void;

/**
 * Read-your-writes for the service these routes belong to: a reply to a request that appended
 * carries its consistency token, and a request naming one of this service's tokens waits until
 * `reached` (its read models applied that position, bounded).
 */
export interface Consistency {
  service: string;
  reached(position: bigint): Promise<unknown>;
}

export type RpcHandler<I = unknown, O = unknown> = (input: I, context: RequestContext) => Promise<RpcReply<O>>;

/**
 * The subjects a service answers and their handlers. Operation handlers get input already
 * validated against the operation's contract (again: the gateway validated it first). A
 * DomainError becomes its error reply; anything else is logged and answers 500.
 */
export class RpcRouter {
  private readonly routes = new Map<string, RpcHandler>();
  private readonly replyListeners = new Map<string, ReplyListener[]>();
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];

  /** With `metrics`, every dispatch is counted and timed by subject and HTTP-equivalent status. */
  constructor(
    private readonly logger: Logger,
    private readonly metrics?: Metrics,
    private readonly consistency?: Consistency,
  ) {}

  /** Resolves once no request is being handled, or after `timeoutMs`. */
  idle(timeoutMs: number): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.idleWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  subjects(): string[] {
    return [...this.routes.keys()];
  }

  on<I, O>(subject: string, handler: RpcHandler<I, O>, inputSchema?: z.ZodType<I>): void {
    if (this.routes.has(subject)) throw new Error(`Subject ${subject} is already handled`);
    this.routes.set(subject, async (input, context) => {
      if (!inputSchema) return handler(input as I, context);
      const parsed = inputSchema.safeParse(input);
      if (!parsed.success) return failure({ kind: 'fields', fields: fieldErrorsFromZod(parsed.error) });
      return handler(parsed.data, context);
    });
  }

  operation<O extends Operation>(
    operation: O,
    handler: (input: OperationInput<O>, context: RequestContext) => Promise<RpcReply<OperationResult<O>>>,
  ): void {
    if (this.routes.has(operation.subject)) throw new Error(`Subject ${operation.subject} is already handled`);
    const { params, query, body } = operation.request;
    const schema = z.object({
      params: params ?? z.unknown(),
      query: query ?? z.unknown(),
      body: body ?? z.unknown(),
    });
    this.routes.set(operation.subject, async (input, context) => {
      const parsed = schema.safeParse(input);
      if (!parsed.success) return failure({ kind: 'fields', fields: fieldErrorsFromZod(parsed.error) });
      return handler(parsed.data as OperationInput<O>, context);
    });
  }

  /** Calls `listener` after each reply to `subject`. */
  onReply(subject: string, listener: ReplyListener): void {
    this.replyListeners.set(subject, [...(this.replyListeners.get(subject) ?? []), listener]);
  }

  async dispatch(subject: string, request: RpcRequest): Promise<RpcReply> {
    const reply = this.metrics
      ? await this.metrics.observe(subject, () => this.handle(subject, request), replyStatus)
      : await this.handle(subject, request);
    for (const listener of this.replyListeners.get(subject) ?? []) listener(reply, request?.input);
    return reply;
  }

  private async handle(subject: string, request: RpcRequest): Promise<RpcReply> {
    const handler = this.routes.get(subject);
    const meta = request?.meta ?? { correlationId: 'unknown' };
    const logger = requestLogger(this.logger, meta.correlationId);
    if (!handler) return failure(catalogueError('resource_not_found'));
    this.inFlight++;
    try {
      return await this.consistent(meta, () => handler(request.input, { meta, logger }));
    } catch (error) {
      if (error instanceof DomainError) return failure(error.error);
      logger.error({ err: error, subject }, 'request failed');
      return failure(catalogueError('internal_server_error'));
    } finally {
      if (--this.inFlight === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }

  /** Waits for the write the request names, if it is this service's; names the request's own writes in its reply. */
  private async consistent(meta: RpcMeta, handle: () => Promise<RpcReply>): Promise<RpcReply> {
    const { consistency } = this;
    if (!consistency) return handle();
    if (meta.readAfter?.service === consistency.service) await consistency.reached(BigInt(meta.readAfter.position));
    const { result: reply, position } = await trackingAppends(handle);
    if (!reply.ok || position === 0n) return reply;
    const token = encodeConsistencyToken({ service: consistency.service, position: String(position) });
    return { ...reply, headers: { ...reply.headers, [consistencyTokenHeader]: token } };
  }
}

/** The HTTP status a reply stands for: the `outcome` label of the request metrics. */
export function replyStatus(reply: RpcReply): string {
  if (reply.ok) return String(reply.status);
  const { error } = reply;
  if (error.kind === 'fields') return '422';
  if (error.kind === 'oauth') return String(oauthErrorCatalogue[error.code]);
  if (error.kind === 'scim') return String(error.status);
  return String(errorCatalogue[error.code].status);
}
