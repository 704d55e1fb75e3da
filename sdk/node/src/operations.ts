import type { paths } from './generated/openapi';

/** The HTTP methods of the API's operations. */
export type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** The paths of the API that have an operation for `M`. */
export type PathsOf<M extends Method> = {
  [P in keyof paths]: paths[P][M] extends { responses: unknown } ? P : never;
}[keyof paths];

/** The generated operation of `M` on `P`. */
export type OperationOf<P extends keyof paths, M extends Method> = Extract<paths[P][M], { responses: unknown }>;

type JsonOf<T> = T extends { content: { 'application/json': infer B } } ? B : undefined;
type SuccessStatus = 200 | 201 | 202 | 204;

/** The JSON body of the operation's success answer. */
export type ResponseOf<Op> = Op extends { responses: infer R } ? JsonOf<R[Extract<keyof R, SuccessStatus>]> : never;

type PathParamsOf<Op> = Op extends { parameters: { path: infer P } } ? P : never;
type QueryOf<Op> = Op extends { parameters: { query?: infer Q } } ? Q : never;
type BodyOf<Op> = Op extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

type ParamsPart<Op> = [PathParamsOf<Op>] extends [never] ? { params?: undefined } : { params: PathParamsOf<Op> };
type BodyPart<Op> = [BodyOf<Op>] extends [never]
  ? { body?: undefined }
  : Op extends { requestBody: unknown }
    ? { body: BodyOf<Op> }
    : { body?: BodyOf<Op> };

/** Options of one call: path parameters, query and JSON body as the document types them. */
export type RequestOptions<Op> = ParamsPart<Op> &
  BodyPart<Op> & {
    query?: QueryOf<Op>;
    /** The `Idempotency-Key` of a POST (by default a random UUID per call, reused across its retries). */
    idempotencyKey?: string;
    headers?: Record<string, string>;
  };

/** The arguments after the path: optional when the operation needs no parameter nor body. */
export type ArgsOf<Op> = object extends RequestOptions<Op> ? [options?: RequestOptions<Op>] : [options: RequestOptions<Op>];

/** The item type of a list operation's `data`. */
export type ItemOf<P extends keyof paths> = ResponseOf<OperationOf<P, 'get'>> extends { data: Array<infer T> } ? T : never;

/** The JSON body of `M` on `P`. */
export type BodyFor<P extends keyof paths, M extends Method> = NonNullable<RequestOptions<OperationOf<P, M>>['body']>;

/** The query of `M` on `P`. */
export type QueryFor<P extends keyof paths, M extends Method> = NonNullable<RequestOptions<OperationOf<P, M>>['query']>;
