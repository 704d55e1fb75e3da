import { useEffect, useState } from 'react';
import type { SsoConnection } from '@sesame/contracts';
import { spSettings, ssoConnection } from '../api';
import type { Failure, SamlConfig } from '../api';
import type { Language, Messages } from '../i18n';
import { isOidcProvider, oidcProviderNames, oidcProviders, providerNames, providers } from '../providers';
import type { OidcProvider, Protocol, SsoProviderType } from '../providers';
import { MetadataUpload } from './MetadataUpload';
import { OidcClientForm } from './OidcClientForm';
import { OidcInstructions } from './OidcInstructions';
import { ProtocolPicker } from './ProtocolPicker';
import { ProviderInstructions } from './ProviderInstructions';
import { ProviderPicker } from './ProviderPicker';
import { TestSignIn } from './TestSignIn';

interface Props {
  t: Messages;
  language: Language;
  testRequestId: string | null;
  onFailure(failure: Failure): void;
}

/** Our values to show the admin: SAML's, and the OIDC redirect URI. */
interface SpValues {
  saml: SamlConfig;
  redirectUri: string;
}

/** Whether the test sign-in can start: SAML needs the IdP metadata, OIDC the issuer, client id and secret. */
const testable = (connection: SsoConnection | null) =>
  connection?.type === 'oidc'
    ? Boolean(connection.oidc_config?.issuer && connection.oidc_config.client_id && connection.oidc_config.client_secret_set)
    : Boolean(connection?.identity_provider);

/** The SSO set-up of the invitation's organization: protocol, provider, our values and steps, the IdP's. */
export function SsoSetup({ t, language, testRequestId, onFailure }: Props) {
  const [values, setValues] = useState<SpValues | null>(null);
  const [connection, setConnection] = useState<SsoConnection | null>(null);
  const [protocol, setProtocol] = useState<Protocol>('saml');
  const [provider, setProvider] = useState<SsoProviderType | null>(null);
  const [oidcProvider, setOidcProvider] = useState<OidcProvider | null>(null);

  useEffect(() => {
    let current = true;
    void Promise.all([spSettings(), ssoConnection()]).then(([settings, found]) => {
      if (!current) return;
      if (!settings.ok) return onFailure(settings);
      if (!found.ok) return onFailure(found);
      setValues({ saml: settings.body.saml_config, redirectUri: settings.body.oidc_redirect_uri });
      const existing = found.body.sso_connection;
      setConnection(existing);
      if (existing?.type === 'oidc') {
        setProtocol('oidc');
        if (isOidcProvider(existing.provider_type)) setOidcProvider(existing.provider_type);
      } else if (existing?.metadata) setProvider(existing.provider_type);
    });
    return () => {
      current = false;
    };
  }, [onFailure]);

  const saved = (updated: SsoConnection) => {
    setConnection(updated);
    setValues((known) => known && { ...known, saml: updated.saml_config });
  };
  const test = testable(connection) && (connection?.type === 'oidc') === (protocol === 'oidc') && (
    <TestSignIn t={t} testRequestId={testRequestId} onFailure={onFailure} />
  );
  return (
    <>
      <ProtocolPicker t={t} protocol={protocol} onChange={setProtocol} />
      {protocol === 'saml' ? (
        <>
          <ProviderPicker
            t={t}
            choices={providers}
            names={providerNames}
            help={t.steps.providerHelp}
            provider={provider}
            onChange={setProvider}
          />
          {provider && values && (
            <>
              <ProviderInstructions t={t} provider={provider} saml={values.saml} />
              <MetadataUpload
                t={t}
                language={language}
                provider={provider}
                connection={connection}
                onSaved={saved}
                onFailure={onFailure}
              />
              {test}
            </>
          )}
        </>
      ) : (
        <>
          <ProviderPicker
            t={t}
            choices={oidcProviders}
            names={oidcProviderNames}
            help={t.oidc.providerHelp}
            provider={oidcProvider}
            onChange={setOidcProvider}
          />
          {oidcProvider && values && (
            <>
              <OidcInstructions t={t} provider={oidcProvider} redirectUri={values.redirectUri} />
              <OidcClientForm t={t} provider={oidcProvider} connection={connection} onSaved={saved} onFailure={onFailure} />
              {test}
            </>
          )}
        </>
      )}
    </>
  );
}
