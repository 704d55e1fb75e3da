import { useEffect, useState } from 'react';
import type { SsoConnection } from '@sesame/contracts';
import { spSettings, ssoConnection } from '../api';
import type { Failure, SamlConfig } from '../api';
import type { Language, Messages } from '../i18n';
import type { SsoProviderType } from '../providers';
import { MetadataUpload } from './MetadataUpload';
import { ProviderInstructions } from './ProviderInstructions';
import { ProviderPicker } from './ProviderPicker';
import { TestSignIn } from './TestSignIn';

interface Props {
  t: Messages;
  language: Language;
  testRequestId: string | null;
  onFailure(failure: Failure): void;
}

/** The SSO set-up of the invitation's organization: provider, our values and steps, metadata. */
export function SsoSetup({ t, language, testRequestId, onFailure }: Props) {
  const [saml, setSaml] = useState<SamlConfig | null>(null);
  const [connection, setConnection] = useState<SsoConnection | null>(null);
  const [provider, setProvider] = useState<SsoProviderType | null>(null);

  useEffect(() => {
    let current = true;
    void Promise.all([spSettings(), ssoConnection()]).then(([settings, found]) => {
      if (!current) return;
      if (!settings.ok) return onFailure(settings);
      if (!found.ok) return onFailure(found);
      setSaml(settings.body.saml_config);
      setConnection(found.body.sso_connection);
      if (found.body.sso_connection?.metadata) setProvider(found.body.sso_connection.provider_type);
    });
    return () => {
      current = false;
    };
  }, [onFailure]);

  const saved = (updated: SsoConnection) => {
    setConnection(updated);
    setSaml(updated.saml_config);
  };
  return (
    <>
      <ProviderPicker t={t} provider={provider} onChange={setProvider} />
      {provider && saml && (
        <>
          <ProviderInstructions t={t} provider={provider} saml={saml} />
          <MetadataUpload
            t={t}
            language={language}
            provider={provider}
            connection={connection}
            onSaved={saved}
            onFailure={onFailure}
          />
          {connection?.identity_provider && <TestSignIn t={t} testRequestId={testRequestId} onFailure={onFailure} />}
        </>
      )}
    </>
  );
}
