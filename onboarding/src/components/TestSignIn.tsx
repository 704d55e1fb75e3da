import { useEffect, useState } from 'react';
import { onboardingPageUrl, ssoTestResult, startSsoTest } from '../api';
import type { Failure, TestResult } from '../api';
import type { Messages } from '../i18n';

interface Props {
  t: Messages;
  /** `request_id` of the test sign-in the browser comes back from, if any. */
  testRequestId: string | null;
  onFailure(failure: Failure): void;
}

/** Step 4: an SP-initiated test sign-in, and what the identity provider sent back. */
export function TestSignIn({ t, testRequestId, onFailure }: Props) {
  const [result, setResult] = useState<TestResult | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!testRequestId) return;
    let current = true;
    void ssoTestResult(testRequestId).then((answer) => {
      if (!current) return;
      if (answer.ok) setResult(answer.body);
      else if (answer.problem) onFailure(answer);
    });
    return () => {
      current = false;
    };
  }, [testRequestId, onFailure]);

  const start = async () => {
    setBusy(true);
    setErrors([]);
    const answer = await startSsoTest(onboardingPageUrl(window.location.origin));
    if (answer.ok) return window.location.assign(answer.body.authorization_url);
    setBusy(false);
    if (answer.problem) return onFailure(answer);
    setErrors(Object.entries(answer.fields).flatMap(([field, messages]) => messages.map((message) => `${field} ${message}`)));
  };
  return (
    <section className="card" aria-labelledby="test-title" data-testid="test">
      <h2 id="test-title">{t.test.title}</h2>
      <p className="muted">{t.test.help}</p>
      <div className="actions">
        <button type="button" className="primary" disabled={busy} onClick={() => void start()}>
          {t.test.start}
        </button>
      </div>
      {errors.length > 0 && (
        <div className="error" role="alert">
          <p>{t.test.refused}</p>
          <ul>
            {errors.map((error) => (
              <li key={error}>{error}</li>
            ))}
          </ul>
        </div>
      )}
      {result && <TestOutcome t={t} result={result} />}
    </section>
  );
}

function TestOutcome({ t, result }: { t: Messages; result: TestResult }) {
  if (result.status === 'pending') return <p data-testid="test-pending">{t.test.pending}</p>;
  if (result.status === 'failed')
    return (
      <p className="error" role="alert" data-testid="test-failed">
        {t.test.failed(result.message ?? result.reason ?? '')}
      </p>
    );
  const rows: [string, string][] = [
    [t.test.nameId, result.name_id ?? ''],
    [t.test.email, result.email ?? ''],
    ...Object.entries(result.attributes).map(([name, values]): [string, string] => [name, values.join(', ')]),
  ];
  return (
    <div data-testid="test-succeeded">
      <p className="success">{t.test.succeeded}</p>
      <table className="attributes">
        <thead>
          <tr>
            <th>{t.test.attribute}</th>
            <th>{t.test.values}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([name, value]) => (
            <tr key={name}>
              <td>{name}</td>
              <td>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>{t.test.profile}</h3>
      <pre className="profile">{JSON.stringify(result.profile, null, 2)}</pre>
    </div>
  );
}
