import { useCallback, useEffect, useState } from 'react';
import type { DomainVerification } from '@sesame/contracts';
import { domainVerifications, startDomainVerification, verifyDomain } from '../api';
import type { Failure } from '../api';
import { formatDate } from '../i18n';
import type { Language, Messages } from '../i18n';
import { CopyField } from './CopyField';

interface Props {
  t: Messages;
  language: Language;
  onFailure(failure: Failure): void;
}

/**
 * The email domains of the invitation's organization: for each, the TXT record to publish in its
 * DNS zone and a "verify now" button; a verified domain routes its people's sign-ins by email.
 */
export function DomainSetup({ t, language, onFailure }: Props) {
  const [verifications, setVerifications] = useState<DomainVerification[] | null>(null);

  useEffect(() => {
    let current = true;
    void domainVerifications().then((found) => {
      if (!current) return;
      if (!found.ok) return onFailure(found);
      setVerifications(found.body.data);
    });
    return () => {
      current = false;
    };
  }, [onFailure]);

  const replace = useCallback(
    (changed: DomainVerification) =>
      setVerifications((all) => all?.map((one) => (one.email_domain === changed.email_domain ? changed : one)) ?? null),
    [],
  );

  return (
    <section className="card" aria-labelledby="domains-title" data-testid="domains-step">
      <h2 id="domains-title">{t.domains.title}</h2>
      <p className="muted">{t.domains.help}</p>
      {verifications?.length === 0 && <p data-testid="no-domains">{t.domains.none}</p>}
      {verifications?.map((verification) => (
        <DomainRow
          key={verification.email_domain}
          t={t}
          language={language}
          verification={verification}
          onChange={replace}
          onFailure={onFailure}
        />
      ))}
    </section>
  );
}

interface RowProps extends Props {
  verification: DomainVerification;
  onChange(verification: DomainVerification): void;
}

function DomainRow({ t, language, verification, onChange, onFailure }: RowProps) {
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const domain = verification.email_domain;
  const testId = `domain-${domain}`;

  const run = async (call: () => ReturnType<typeof verifyDomain>) => {
    setBusy(true);
    setRefusal(null);
    const answer = await call();
    setBusy(false);
    if (answer.ok) return onChange(answer.body);
    if (answer.problem) return onFailure(answer);
    setRefusal(t.domains.failures[answer.code ?? ''] ?? t.domains.failures.other);
  };

  return (
    <div className="domain" data-testid={testId}>
      <h3>
        {domain} <span data-testid={`${testId}-status`}>{t.domains.status[verification.status]}</span>
      </h3>
      {verification.status === 'verified' && verification.verified_at && (
        <p data-testid={`${testId}-verified`}>{t.domains.verifiedOn(formatDate(language, verification.verified_at))}</p>
      )}
      {verification.status === 'unverified' && (
        <div className="actions">
          <button
            type="button"
            className="primary"
            disabled={busy}
            data-testid={`${testId}-start`}
            onClick={() => void run(() => startDomainVerification(domain))}
          >
            {t.domains.start}
          </button>
        </div>
      )}
      {verification.status === 'pending' && verification.record && (
        <>
          <p>{t.domains.recordHelp}</p>
          <div className="values">
            <CopyField
              id={`${testId}-record-type`}
              label={t.domains.recordType}
              value={verification.record.type}
              copyLabel={t.values.copy}
              copiedLabel={t.values.copied}
            />
            <CopyField
              id={`${testId}-record-name`}
              label={t.domains.recordName}
              value={verification.record.name}
              copyLabel={t.values.copy}
              copiedLabel={t.values.copied}
            />
            <CopyField
              id={`${testId}-record-value`}
              label={t.domains.recordValue}
              value={verification.record.value}
              copyLabel={t.values.copy}
              copiedLabel={t.values.copied}
            />
          </div>
          <div className="actions">
            <button
              type="button"
              className="primary"
              disabled={busy}
              data-testid={`${testId}-verify`}
              onClick={() => void run(() => verifyDomain(domain))}
            >
              {t.domains.verify}
            </button>
          </div>
        </>
      )}
      {refusal && (
        <p className="error" role="alert" data-testid={`${testId}-refused`}>
          {refusal}
        </p>
      )}
    </div>
  );
}
