import { catalogueError, fieldErrorsFromZod, reasonOf, rpcTable } from '@sesame/contracts';
import type {
  AppError,
  RefusalReason,
  RpcCallInput,
  RpcCallOutput,
  RpcMeta,
  RpcReply,
  RpcRequest,
  RpcSubject,
} from '@sesame/contracts';
import { DomainError } from '../decider/decider';
import { RpcUnavailableError } from './rpc-unavailable';

/** What sends a request and brings its reply back: `RpcClient` over NATS, an in-memory router in tests. */
export interface RpcTransport {
  request<T = unknown>(subject: string, request: RpcRequest): Promise<RpcReply<T>>;
}

/**
 * Another service's refusal, thrown as the DomainError it carries (a handler that lets it through
 * answers it as is), with its stable `reason` code to branch on: `taken`, `resource_not_found`,
 * `user_limit_reached`... never the message text.
 */
export class RpcRefusal extends DomainError {
  readonly reason: RefusalReason | undefined;

  constructor(error: AppError) {
    super(error);
    this.name = 'RpcRefusal';
    this.reason = reasonOf(error);
  }
}

/**
 * The one client services and the gateway call each other with, typed by the contracts'
 * `rpcTable`: the input is validated before it is sent (a 422 refusal, as the callee would answer),
 * the reply is unwrapped and its body validated against the response schema (a mismatch is a bug:
 * an Error, answered 500). A refusal is an `RpcRefusal`; no answer at all is 503 `service_unavailable`.
 */
export class TypedRpcClient {
  constructor(private readonly transport: RpcTransport) {}

  async call<S extends RpcSubject>(subject: S, input: RpcCallInput<S>, meta: RpcMeta): Promise<RpcCallOutput<S>> {
    const { request, response } = rpcTable[subject];
    const checked = request.safeParse(input);
    if (!checked.success) throw new RpcRefusal({ kind: 'fields', fields: fieldErrorsFromZod(checked.error) });
    const reply = await this.send(subject, { meta, input });
    if (!reply.ok) throw new RpcRefusal(reply.error);
    const body = response.safeParse(reply.body);
    if (!body.success) throw new Error(`The answer on ${subject} does not follow its contract: ${body.error.message}`);
    return body.data as RpcCallOutput<S>;
  }

  private async send(subject: string, request: RpcRequest): Promise<RpcReply> {
    try {
      return await this.transport.request(subject, request);
    } catch (error) {
      if (error instanceof RpcUnavailableError) throw new RpcRefusal(catalogueError('service_unavailable'));
      throw error;
    }
  }
}
