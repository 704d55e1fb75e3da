import { useState } from 'react';
import type { SsoConnection } from '@sesame/contracts';
import { saveOidcConnection } from '../api';
import type { Failure } from '../api';
import type { Messages } from '../i18n';
import { oidcProviderNames } from '../providers';
import type { OidcProvider } from '../providers';

interface Props {
  t: Messages;
  provider: OidcProvider;
  connection: SsoConnection | null;
  onSaved(connection: SsoConnection): void;
  onFailure(failure: Failure): void;
}

/** Step 3 for OIDC: the issuer, client id and client secret of the application, saved on the SSO connection. */
export function OidcClientForm({ t, provider, connection, onSaved, onFailure }: Props) {
  const recorded = connection?.type === 'oidc' ? connection.oidc_config : null;
  const [issuer, setIssuer] = useState(recorded?.issuer ?? '');
  const [clientId, setClientId] = useState(recorded?.client_id ?? '');
  const [secret, setSecret] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);

  const save = async () => {
    setBusy(true);
    setErrors([]);
    setSaved(false);
    const client = {
      oidc_issuer: issuer.trim(),
      oidc_client_id: clientId.trim(),
      ...(secret ? { oidc_client_secret: secret } : {}),
    };
    const answer = await saveOidcConnection(provider, client);
    setBusy(false);
    if (answer.ok) {
      setSaved(true);
      setSecret('');
      return onSaved(answer.body);
    }
    if (answer.problem) return onFailure(answer);
    setErrors(Object.entries(answer.fields).flatMap(([field, messages]) => messages.map((message) => `${field} ${message}`)));
  };
  const input = (id: string, label: string, value: string, onChange: (value: string) => void, type = 'text') => (
    <>
      <label htmlFor={id} className="block">
        {label}
      </label>
      <input
        id={id}
        type={type}
        value={value}
        spellCheck={false}
        autoComplete="off"
        onChange={(event) => onChange(event.target.value)}
      />
    </>
  );
  return (
    <section className="card" aria-labelledby="oidc-title" data-testid="oidc-client">
      <h2 id="oidc-title">{t.oidc.title}</h2>
      <p className="muted">{t.oidc.help(oidcProviderNames[provider])}</p>
      {input('oidc-issuer', t.oidc.issuer, issuer, setIssuer, 'url')}
      {input('oidc-client-id', t.oidc.clientId, clientId, setClientId)}
      {input('oidc-client-secret', t.oidc.clientSecret, secret, setSecret, 'password')}
      {recorded?.client_secret_set && (
        <p className="muted" data-testid="secret-set">
          {t.oidc.secretSet}
        </p>
      )}
      <div className="actions">
        <button type="button" className="primary" disabled={busy} onClick={() => void save()}>
          {t.oidc.save}
        </button>
      </div>
      {errors.length > 0 && (
        <div className="error" role="alert" data-testid="oidc-errors">
          <p>{t.oidc.refused}</p>
          <ul>
            {errors.map((error) => (
              <li key={error}>{error}</li>
            ))}
          </ul>
        </div>
      )}
      {saved && (
        <p className="success" role="status">
          {t.oidc.saved}
        </p>
      )}
    </section>
  );
}
