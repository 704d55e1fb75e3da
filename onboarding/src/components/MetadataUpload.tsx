import { useState } from 'react';
import type { SsoConnection } from '@sesame/contracts';
import { saveSsoConnection } from '../api';
import type { Failure } from '../api';
import { formatDate } from '../i18n';
import type { Language, Messages } from '../i18n';
import { providerNames } from '../providers';
import type { SsoProviderType } from '../providers';

interface Props {
  t: Messages;
  language: Language;
  provider: SsoProviderType;
  connection: SsoConnection | null;
  onSaved(connection: SsoConnection): void;
  onFailure(failure: Failure): void;
}

/** Step 3: the identity provider's metadata, uploaded as a file or pasted, saved on the SSO connection. */
export function MetadataUpload({ t, language, provider, connection, onSaved, onFailure }: Props) {
  const [xml, setXml] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);

  const save = async () => {
    setBusy(true);
    setErrors([]);
    setSaved(false);
    const answer = await saveSsoConnection(provider, xml);
    setBusy(false);
    if (answer.ok) {
      setSaved(true);
      setXml('');
      return onSaved(answer.body);
    }
    if (answer.problem) return onFailure(answer);
    setErrors(Object.entries(answer.fields).flatMap(([field, messages]) => messages.map((message) => `${field} ${message}`)));
  };
  const idp = connection?.identity_provider;
  return (
    <section className="card" aria-labelledby="metadata-title" data-testid="metadata">
      <h2 id="metadata-title">{t.metadata.title}</h2>
      <p className="muted">{t.metadata.help(providerNames[provider])}</p>
      <label htmlFor="metadata-file">{t.metadata.file}</label>{' '}
      <input
        id="metadata-file"
        type="file"
        accept=".xml,application/xml,text/xml,application/samlmetadata+xml"
        onChange={(event) => void event.target.files?.[0]?.text().then(setXml)}
      />
      <label htmlFor="metadata-xml" className="block">
        {t.metadata.paste}
      </label>
      <textarea id="metadata-xml" value={xml} spellCheck={false} onChange={(event) => setXml(event.target.value)} />
      <div className="actions">
        <button type="button" className="primary" disabled={busy || xml.trim() === ''} onClick={() => void save()}>
          {t.metadata.save}
        </button>
      </div>
      {errors.length > 0 && (
        <div className="error" role="alert" data-testid="metadata-errors">
          <p>{t.metadata.refused}</p>
          <ul>
            {errors.map((error) => (
              <li key={error}>{error}</li>
            ))}
          </ul>
        </div>
      )}
      {saved && (
        <p className="success" role="status">
          {t.metadata.saved}
        </p>
      )}
      {connection && idp && (
        <dl className="connected" data-testid="connected">
          <dt>{t.metadata.connected(providerNames[connection.provider_type])}</dt>
          <dd>
            {t.metadata.idpEntityId}: <code>{idp.entity_id}</code>
          </dd>
          <dd>
            {t.metadata.ssoUrl}: <code>{idp.sso_url}</code>
          </dd>
          {idp.certificates.map((certificate) => (
            <dd key={certificate.fingerprint_sha256}>
              {t.metadata.certificate(certificate.fingerprint_sha256.slice(0, 23), formatDate(language, certificate.not_after))}
            </dd>
          ))}
        </dl>
      )}
    </section>
  );
}
