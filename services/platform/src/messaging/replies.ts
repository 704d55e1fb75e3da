import type { AppError, RpcReply } from '@sesame/contracts';

export const ok = <T>(body: T, status = 200): RpcReply<T> => ({ ok: true, status, body });
export const created = <T>(body: T): RpcReply<T> => ({ ok: true, status: 201, body });
export const failure = (error: AppError): RpcReply<never> => ({ ok: false, error });
