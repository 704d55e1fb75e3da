import { createKeyAndCertificate } from '../crypto/sp-key';
import type { KeyAndCertificate } from '../crypto/sp-key';
import type { TestIdp } from '../../../../../../test/support/saml-idp';
import { validateSamlResponse } from './response-validator';
import type { ResponseExpectations } from './response-validator';
import { testSp as sp, validationKit } from './validation.spec-kit';

describe('SAML response validation', () => {
  let idp: TestIdp;
  let attacker: KeyAndCertificate;
  let expected: ResponseExpectations;
  beforeAll(async () => {
    ({ idp, expected } = await validationKit());
    attacker = await createKeyAndCertificate('attacker');
  });
  const validate = (xml: string, overrides: Partial<ResponseExpectations> = {}) =>
    validateSamlResponse(xml, { ...expected, now: new Date(), ...overrides });
  const signed = (options: Partial<Parameters<TestIdp['signedResponseXml']>[1]> = {}) =>
    idp.signedResponseXml(sp, { nameId: 'ada@acme.com', inResponseTo: '_req1', ...options });

  it('accepts a response signed by the IdP, on the assertion, the response or both, and reads it', () => {
    for (const sign of ['assertion', 'response', 'both'] as const) {
      const result = validate(signed({ sign, attributes: { email: 'ada@acme.com', groups: ['a', 'b'] }, sessionIndex: '_s1' }));
      expect(result).toMatchObject({
        ok: true,
        assertion: {
          issuer: idp.entityId,
          in_response_to: '_req1',
          name_id: 'ada@acme.com',
          session_index: '_s1',
          attributes: { email: ['ada@acme.com'], groups: ['a', 'b'] },
        },
      });
    }
  });

  it('accepts any of several IdP certificates (rotation)', async () => {
    const other = await createKeyAndCertificate('next');
    expect(validate(signed(), { certificates: [other.certificatePem, idp.key.certificatePem] })).toMatchObject({ ok: true });
  });

  it.each([
    ['an unsigned response', () => signed({ sign: 'none' }), 'unsigned'],
    ['a wrong audience', () => signed({ tags: { Audience: 'https://other-sp.example.com' } }), 'wrong_audience'],
    ['a wrong recipient', () => signed({ tags: { SubjectRecipient: 'https://evil.example.com/acs' } }), 'wrong_recipient'],
    ['a wrong destination', () => signed({ tags: { Destination: 'https://evil.example.com/acs' } }), 'wrong_destination'],
    ['a wrong issuer', () => signed({ tags: { Issuer: 'https://evil-idp.example.com' } }), 'wrong_issuer'],
    [
      'an expired assertion',
      () =>
        signed({
          tags: {
            ConditionsNotBefore: new Date(Date.now() - 3_600_000).toISOString(),
            ConditionsNotOnOrAfter: new Date(Date.now() - 600_000).toISOString(),
            SubjectConfirmationDataNotOnOrAfter: new Date(Date.now() - 600_000).toISOString(),
          },
        }),
      'expired',
    ],
    [
      'an assertion from the future',
      () => signed({ tags: { ConditionsNotBefore: new Date(Date.now() + 600_000).toISOString() } }),
      'not_yet_valid',
    ],
    ['a DOCTYPE', () => `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>${signed()}`, 'doctype'],
    [
      'a failed status',
      () => signed({ tags: { StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Requester' } }),
      'status_not_success',
    ],
    ['not XML', () => 'garbage<', 'malformed'],
  ])('refuses %s', (_case, make, reason) => {
    expect(validate(make())).toMatchObject({ ok: false, reason });
  });

  it('refuses a response signed with another key (no KeyInfo) and one whose KeyInfo carries the signer certificate', () => {
    const wrongKey = idp.signWith(idp.responseXml(sp, { nameId: 'ada@acme.com' }), 'assertion', attacker);
    expect(validate(wrongKey.replace(/<ds:KeyInfo>[\s\S]*?<\/ds:KeyInfo>/, ''))).toMatchObject({
      ok: false,
      reason: 'bad_signature',
    });
    expect(validate(wrongKey)).toMatchObject({ ok: false, reason: 'untrusted_certificate' });
  });

  it('refuses a tampered signed assertion, and a broken response signature even when the assertion signature holds', () => {
    expect(validate(signed().replace('ada@acme.com', 'eve@acme.com'))).toMatchObject({ ok: false, reason: 'bad_signature' });
    const both = signed({ sign: 'both' });
    // Change the first character of the outer signature value (never a no-op, unlike swapping two that may be equal).
    const brokenOuter = both.replace(
      /<ds:SignatureValue>(.)/,
      (_match, first: string) => `<ds:SignatureValue>${first === 'A' ? 'B' : 'A'}`,
    );
    const tamperedDestination = both.replace(`Destination="${sp.acs_url}"`, `Destination="${sp.acs_url}?x"`);
    expect(validate(tamperedDestination, { acsUrl: `${sp.acs_url}?x` })).toMatchObject({ ok: false, reason: 'bad_signature' });
    expect(both.indexOf('<ds:SignatureValue>')).toBeLessThan(both.indexOf('<saml:Assertion'));
    expect(validate(brokenOuter)).toMatchObject({ ok: false, reason: 'bad_signature' });
  });

  it('refuses signature wrapping: the signed assertion moved away and a forged one in its place', () => {
    const xml = signed();
    const original = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)?.[0] as string;
    const forged = original.replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '').replace('ada@acme.com', 'admin@acme.com');
    const wrapped = xml
      .replace(original, `${forged}`)
      .replace('</samlp:Status>', `</samlp:Status><samlp:Extensions>${original}</samlp:Extensions>`);
    expect(validate(wrapped)).toMatchObject({ ok: false, reason: 'signature_wrapping' });
    const renamed = wrapped.replace(/<samlp:Extensions>(<saml:Assertion[^>]*?)ID="[^"]+"/, '<samlp:Extensions>$1ID="_moved"');
    expect(validate(renamed)).toMatchObject({ ok: false, reason: 'assertion_count' });
    const sameIdElsewhere = xml
      .replace(original, forged.replace('<saml:Issuer>', `<saml:Issuer>`))
      .replace(
        '<samlp:Status>',
        `<samlp:Extensions><x:Wrapper xmlns:x="urn:x" ID="${/ID="([^"]+)"/.exec(original)?.[1]}">${original.replace(/<saml:Assertion/, '<x:Copy').replace(/<\/saml:Assertion>$/, '</x:Copy>')}</x:Wrapper></samlp:Extensions><samlp:Status>`,
      );
    expect(validate(sameIdElsewhere)).toMatchObject({ ok: false, reason: 'signature_wrapping' });
  });

  describe('InResponseTo counts only where a signature covers it', () => {
    /** The attribute on the Response element itself (the template puts it first, before the assertion's). */
    const onResponse = (xml: string, value: string) =>
      xml.replace('<samlp:Response ', `<samlp:Response InResponseTo="${value}" `);
    const inSubjectConfirmation = / InResponseTo="[^"]*"(?=\/>)/;

    it('refuses an unsigned InResponseTo added on the Response around a signed assertion that names none (login CSRF)', () => {
      const unsolicited = signed({ inResponseTo: undefined });
      expect(unsolicited).not.toContain('InResponseTo');
      expect(validate(unsolicited)).toMatchObject({ ok: true, assertion: { in_response_to: null } });
      expect(validate(onResponse(unsolicited, '_req1'))).toEqual({
        ok: false,
        reason: 'in_response_to_unsigned',
        detail: 'the unsigned Response names InResponseTo _req1, the signed assertion none',
      });
    });

    it('reads it from the SubjectConfirmationData of a signed assertion, and from a signed Response', () => {
      expect(validate(signed({ sign: 'assertion' }))).toMatchObject({ ok: true, assertion: { in_response_to: '_req1' } });
      const onlyOnResponse = idp
        .responseXml(sp, { nameId: 'ada@acme.com', inResponseTo: '_req1' })
        .replace(inSubjectConfirmation, '');
      expect(onlyOnResponse.match(/InResponseTo=/g)).toHaveLength(1);
      expect(validate(idp.signWith(onlyOnResponse, 'response'))).toMatchObject({
        ok: true,
        assertion: { in_response_to: '_req1' },
      });
      expect(validate(idp.signWith(idp.signWith(onlyOnResponse, 'assertion'), 'response'))).toMatchObject({
        ok: true,
        assertion: { in_response_to: '_req1' },
      });
      const onlyInAssertion = signed({ sign: 'assertion' }).replace(/(<samlp:Response[^>]*?) InResponseTo="_req1"/, '$1');
      expect(onlyInAssertion.match(/InResponseTo=/g)).toHaveLength(1);
      expect(validate(onlyInAssertion)).toMatchObject({ ok: true, assertion: { in_response_to: '_req1' } });
    });

    it('refuses two different values, whichever element is signed', () => {
      const xml = idp
        .responseXml(sp, { nameId: 'ada@acme.com', inResponseTo: '_req1' })
        .replace(/(<samlp:Response[^>]*?) InResponseTo="_req1"/, '$1 InResponseTo="_req2"');
      const signedAs = {
        assertion: idp.signWith(xml, 'assertion'),
        response: idp.signWith(xml, 'response'),
        both: idp.signWith(idp.signWith(xml, 'assertion'), 'response'),
      };
      for (const variant of Object.values(signedAs))
        expect(validate(variant)).toMatchObject({ ok: false, reason: 'in_response_to_mismatch' });
    });
  });

  it('refuses two assertions and a comment injected in the NameID', () => {
    const xml = signed();
    const assertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)?.[0] as string;
    const second = assertion.replace(/ID="[^"]+"/, 'ID="_second"');
    expect(validate(xml.replace(assertion, assertion + second))).toMatchObject({ ok: false, reason: 'assertion_count' });
    const injected = signed({ nameId: 'admin@acme.com.evil.com' }).replace(
      'admin@acme.com.evil.com',
      'admin@acme.com<!---->.evil.com',
    );
    expect(validate(injected)).toMatchObject({ ok: false, reason: 'comment_injection' });
  });
});
