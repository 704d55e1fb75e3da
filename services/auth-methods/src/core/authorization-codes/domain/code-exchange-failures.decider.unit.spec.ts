import type { CodeExchangeFailureEvent } from '@sesame/contracts';
import { deciderSpecification } from '@sesame/platform/testing';
import { codeExchangeFailuresDecider, maxRecordedCodeExchangeFailures } from './code-exchange-failures.decider';

const failure: CodeExchangeFailureEvent['data'] = {
  environment: 'sandbox',
  organization_domain: 'acme',
  organization_id: 'org-acme',
  user_id: '6f1c1b8e-6a2f-4a57-9a53-6a1f0b0f2f10',
  method: 'magic_link',
  client_id: 'client-1',
  reason: 'expired',
  at: '2026-01-01T00:03:00.000Z',
};
const failed: CodeExchangeFailureEvent = { type: 'AuthorizationCodeExchangeFailed', data: failure };
const record = { type: 'RecordCodeExchangeFailure' as const, data: failure };
const spec = deciderSpecification(codeExchangeFailuresDecider);

describe('refused exchanges of a code', () => {
  it('records a refusal, and the next ones', () => {
    spec.given([]).when(record).then([failed]);
    spec.given([failed]).when(record).then([failed]);
  });

  it(`records no more than ${maxRecordedCodeExchangeFailures} refusals of one code`, () => {
    const full = Array.from({ length: maxRecordedCodeExchangeFailures }, () => failed);
    spec.given(full.slice(1)).when(record).then([failed]);
    spec.given(full).when(record).then([]);
  });
});
