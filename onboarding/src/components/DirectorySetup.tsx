import { useCallback, useEffect, useState } from 'react';
import type { DirectorySync } from '@sesame/contracts';
import { directorySync, rotateDirectorySyncToken, setUpDirectorySync } from '../api';
import type { Failure } from '../api';
import { directoryProviderNames, directoryProviders } from '../directory-providers';
import type { DirectoryProvider } from '../directory-providers';
import type { Language, Messages } from '../i18n';
import { CopyField } from './CopyField';
import { DirectoryStatus } from './DirectoryStatus';

interface Props {
  t: Messages;
  language: Language;
  onFailure(failure: Failure): void;
}

export const directoryProviderName = (t: Messages, provider: DirectoryProvider) =>
  provider === 'generic' ? t.directory.genericProvider : directoryProviderNames[provider];

/**
 * The directory sync of the invitation's organization: the directory, the SCIM base URL and its
 * bearer token (its value shown once, when issued), the steps in that directory, its live status.
 */
export function DirectorySetup({ t, language, onFailure }: Props) {
  const [directory, setDirectory] = useState<DirectorySync | null>(null);
  const [provider, setProvider] = useState<DirectoryProvider | null>(null);
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState(false);

  useEffect(() => {
    let current = true;
    void directorySync().then((found) => {
      if (!current) return;
      if (!found.ok) return onFailure(found);
      setDirectory(found.body.directory_sync);
      const type = found.body.directory_sync?.provider_type;
      if (type && (directoryProviders as readonly string[]).includes(type)) setProvider(type as DirectoryProvider);
    });
    return () => {
      current = false;
    };
  }, [onFailure]);

  const run = useCallback(
    async (call: () => ReturnType<typeof rotateDirectorySyncToken>) => {
      setBusy(true);
      setRefused(false);
      const answer = await call();
      setBusy(false);
      if (answer.ok) return setDirectory(answer.body);
      if (answer.problem) return onFailure(answer);
      setRefused(true);
    },
    [onFailure],
  );
  const choose = (chosen: DirectoryProvider) => {
    setProvider(chosen);
    if (directory && directory.provider_type !== chosen) void run(() => setUpDirectorySync(chosen)).then(() => undefined);
  };

  return (
    <>
      <section className="card" aria-labelledby="directory-title" data-testid="directory">
        <h2 id="directory-title">{t.directory.title}</h2>
        <p className="muted">{t.directory.help}</p>
        <div className="providers" role="radiogroup" aria-labelledby="directory-title">
          {directoryProviders.map((id) => (
            <label key={id} className={id === provider ? 'provider selected' : 'provider'}>
              <input type="radio" name="directory-provider" value={id} checked={id === provider} onChange={() => choose(id)} />
              {directoryProviderName(t, id)}
            </label>
          ))}
        </div>
        {provider && !directory && (
          <div className="actions">
            <button
              type="button"
              className="primary"
              disabled={busy}
              data-testid="directory-create"
              onClick={() => void run(() => setUpDirectorySync(provider))}
            >
              {t.directory.create}
            </button>
          </div>
        )}
        {refused && (
          <p className="error" role="alert">
            {t.directory.refused}
          </p>
        )}
      </section>
      {provider && directory && (
        <>
          <DirectoryCredentials t={t} directory={directory} busy={busy} onRotate={() => void run(rotateDirectorySyncToken)} />
          <DirectoryInstructions t={t} provider={provider} />
          <DirectoryStatus t={t} language={language} onFailure={onFailure} />
        </>
      )}
    </>
  );
}

interface CredentialsProps {
  t: Messages;
  directory: DirectorySync;
  busy: boolean;
  onRotate(): void;
}

/** The SCIM base URL, and the token: its value right after it is issued, else only its last characters. */
function DirectoryCredentials({ t, directory, busy, onRotate }: CredentialsProps) {
  const [confirming, setConfirming] = useState(false);
  const token = directory.auth_secret_token;
  const field = (id: string, label: string, value: string) => (
    <CopyField id={id} label={label} value={value} copyLabel={t.values.copy} copiedLabel={t.values.copied} />
  );
  return (
    <section className="card" aria-labelledby="scim-title" data-testid="scim-credentials">
      <h2 id="scim-title">{t.directory.credentials}</h2>
      <div className="values">
        {field('scim-base-url', t.directory.baseUrl, directory.scim_base_url)}
        {token.value ? (
          <>
            {field('scim-token', t.directory.token, token.value)}
            <p className="warning" role="status" data-testid="token-once">
              {t.directory.tokenOnce}
            </p>
          </>
        ) : (
          <p data-testid="token-hint">{t.directory.tokenHint(token.hint)}</p>
        )}
      </div>
      <div className="actions">
        {confirming ? (
          <>
            <button
              type="button"
              className="danger"
              disabled={busy}
              data-testid="rotate-confirm"
              onClick={() => {
                setConfirming(false);
                onRotate();
              }}
            >
              {t.directory.rotateConfirm}
            </button>
            <button type="button" className="secondary" onClick={() => setConfirming(false)}>
              {t.charge.cancel}
            </button>
          </>
        ) : (
          <button type="button" className="secondary" data-testid="rotate" onClick={() => setConfirming(true)}>
            {t.directory.rotate}
          </button>
        )}
      </div>
    </section>
  );
}

/** What to do in the chosen directory. */
function DirectoryInstructions({ t, provider }: { t: Messages; provider: DirectoryProvider }) {
  const name = directoryProviderName(t, provider);
  return (
    <section className="card" aria-labelledby="directory-steps-title" data-testid="directory-instructions">
      <h2 id="directory-steps-title">{t.directory.instructions(name)}</h2>
      <ol className="instructions">
        {t.directoryInstructions[provider].map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
    </section>
  );
}
