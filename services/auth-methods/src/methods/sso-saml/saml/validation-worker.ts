import { parentPort } from 'node:worker_threads';
import { validateSamlResponse } from './response-validator';
import type { ResponseExpectations } from './response-validator';

/** A thread of the validation pool: validates one SAML Response per message, in order. */
parentPort?.on('message', ({ id, xml, expected }: { id: number; xml: string; expected: ResponseExpectations }) => {
  try {
    parentPort?.postMessage({ id, result: validateSamlResponse(xml, expected) });
  } catch (error) {
    parentPort?.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
