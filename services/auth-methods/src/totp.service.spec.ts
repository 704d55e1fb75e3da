import { subjects } from '@sesame/contracts';
import { aUser, acmeId, anOrganization, authMethodsSpecification, identityAnswers, sandboxKey } from './auth-methods.spec-kit';

const totp = subjects.authMethods.totp;
const ada = aUser({ phone_number: '+33612345678' });
const grace = aUser({ id: '00000000-0000-4000-8000-0000000000a2', email: 'grace@acme.example', phone_number: '+33698765432' });
const params = { org_domain: 'acme', user_id: ada.id };
const scope = { organization_domain: 'acme', environment: 'sandbox' };
const stream = `totpEnrollment-${ada.id}`;
const organizationCall = {
  subject: subjects.identity.organizations.get,
  input: { params: { org_domain: 'acme' }, query: {}, body: {} },
};
const userCall = (id: string) => ({ subject: subjects.identity.users.findById, input: { ...scope, id } });
const at = expect.any(String);
const sixDigits = expect.stringMatching(/^\d{6}$/);
const codeOf = (text: { text: string } | undefined) =>
  /^(\d{6}) is your acme verification code/.exec(text?.text ?? '')?.[1] ?? '';

/** Acme with TOTP by text message, ada and grace its users (grace never enrolls). */
async function smsTotp() {
  const kit = await authMethodsSpecification(identityAnswers([anOrganization()], [ada, grace]));
  const body = { active: true, method: 'sms' };
  await kit.spec.request(totp.updateConnection, { params: { org_domain: 'acme' }, query: {}, body }, sandboxKey);
  return kit;
}

async function enrolledAda() {
  const kit = await smsTotp();
  await kit.spec.request(totp.enroll, { params, query: {}, body: {} }, sandboxKey);
  const code = codeOf(kit.texts.at(-1));
  await kit.spec.request(totp.validateEnrollment, { params, query: { code }, body: {} }, sandboxKey);
  return kit;
}

describe('TOTP by text message in the auth-methods service (its router and handlers on in-memory stores, identity answered by a table)', () => {
  it('enrolls: 201 with the first code, the enrollment recorded, the same code texted to the phone', async () => {
    const { spec, texts } = await smsTotp();
    const outcome = await spec.when(totp.enroll, { params, query: {}, body: {} }, sandboxKey).then({
      reply: {
        ok: true,
        status: 201,
        body: {
          email: 'ada@acme.example',
          enrolled_totp_at: at,
          enrolled_at: at,
          enrollment_totp_nb: 1,
          enrollment_nb: 1,
          first_verification_code: sixDigits,
          last_recovery_acknowledgement_at: null,
          last_recovery_code_at: null,
          recovery_codes: null,
          uri: null,
          validated_enrollment_at: null,
        },
      },
      events: [
        {
          stream,
          type: 'TotpEnrolled',
          data: expect.objectContaining({
            organization_id: acmeId,
            ...scope,
            user_id: ada.id,
            method: 'sms',
            period: 600,
            enrollment_nb: 1,
          }),
        },
      ],
      calls: [organizationCall, userCall(ada.id)],
    });
    const { first_verification_code } = (outcome.reply as { body: { first_verification_code: string } }).body;
    expect(texts).toEqual([
      {
        to: '+33612345678',
        text: `${first_verification_code} is your acme verification code. It expires in 10 minutes.`,
        tags: ['totp', 'acme'],
      },
    ]);
  });

  it('refuses a wrong enrollment code with invalid_code and counts the failure', async () => {
    const { spec } = await smsTotp();
    await spec.request(totp.enroll, { params, query: {}, body: {} }, sandboxKey);
    await spec.when(totp.validateEnrollment, { params, query: { code: '000000' }, body: {} }, sandboxKey).then({
      reply: { ok: false, error: { kind: 'error', code: 'invalid_code' } },
      events: [
        {
          stream,
          type: 'TotpCodeRejected',
          data: { ...scope, user_id: ada.id, failed_attempts: 1, locked_until: null, at },
        },
      ],
      calls: [organizationCall, userCall(ada.id)],
    });
  });

  it('challenges an enrolled user: a new code texted, then accepted once', async () => {
    const { spec, texts } = await enrolledAda();
    await spec.when(totp.challenge, { params, query: {}, body: {} }, sandboxKey).then({
      reply: {
        ok: true,
        status: 201,
        body: {
          request_id: expect.any(String),
          sent_at: at,
          challenged_at: at,
          code: null,
          success: false,
          recovery_code_used: false,
        },
      },
      events: [
        { stream: `claim-${stream}@2`, type: 'RevisionClaimed', data: { stream, revision: 2, owner: expect.any(String) } },
        { stream, type: 'TotpChallengeCreated', data: expect.objectContaining({ ...scope, user_id: ada.id, sent_at: at }) },
      ],
      calls: [organizationCall, userCall(ada.id)],
    });
    expect(texts).toHaveLength(2);
    const code = codeOf(texts[1]);
    const validated = await spec.request(totp.validateChallenge, { params, query: {}, body: { code } }, sandboxKey);
    // The answer's code is the sign-in's authorization code, to exchange for tokens.
    expect(validated.reply).toMatchObject({
      ok: true,
      status: 200,
      body: { code: expect.any(String), success: true, recovery_code_used: false },
    });
    expect(validated.events.map((event) => event.type)).toEqual(['TotpChallengeSucceeded', 'AuthorizationCodeIssued']);
    const again = await spec.request(totp.validateChallenge, { params, query: {}, body: { code } }, sandboxKey);
    expect(again.reply).toEqual({ ok: false, error: { kind: 'error', code: 'invalid_code' } });
  });

  it('refuses to challenge a user who never enrolled, before any text is sent', async () => {
    const { spec, texts } = await smsTotp();
    await spec.when(totp.challenge, { params: { ...params, user_id: grace.id }, query: {}, body: {} }, sandboxKey).then({
      reply: { ok: false, error: { kind: 'fields', fields: { user_id: ['is not enrolled in TOTP'] } } },
      calls: [organizationCall, userCall(grace.id)],
    });
    expect(texts).toEqual([]);
  });

  it('answers 404 for a user identity does not know, recording nothing', async () => {
    const { spec, texts } = await smsTotp();
    const unknown = '00000000-0000-4000-8000-0000000000ff';
    await spec.when(totp.enroll, { params: { ...params, user_id: unknown }, query: {}, body: {} }, sandboxKey).then({
      reply: { ok: false, error: { kind: 'error', code: 'resource_not_found' } },
      calls: [organizationCall, userCall(unknown)],
    });
    expect(texts).toEqual([]);
  });

  it('puts the organization (id and environment) on the envelope of every event of the connection and the enrollment', async () => {
    const { spec } = await enrolledAda();
    await spec.request(totp.challenge, { params, query: {}, body: {} }, sandboxKey);
    const tenant = { organization_id: acmeId, environment: 'sandbox' };
    for (const name of [`totpConnection-sandbox:${acmeId}`, stream]) {
      const { events } = await spec.runtime.eventStore.readStream(name);
      expect(events.map((event) => [event.type, event.metadata.tenant])).toEqual(events.map((event) => [event.type, tenant]));
    }
    const { events } = await spec.runtime.eventStore.readStream(stream);
    // Challenges and validations name no organization in their data: the enrollment's state does.
    expect(events.map((event) => event.type)).toEqual(['TotpEnrolled', 'TotpEnrollmentValidated', 'TotpChallengeCreated']);
  });
});
