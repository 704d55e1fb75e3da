import type { Messages } from '../i18n';
import { oidcProviderNames } from '../providers';
import type { OidcProvider } from '../providers';
import { CopyField } from './CopyField';

/** Step 2 for OIDC: our redirect URI, to copy, the scopes, and what to do in the chosen identity provider. */
export function OidcInstructions({ t, provider, redirectUri }: { t: Messages; provider: OidcProvider; redirectUri: string }) {
  const name = oidcProviderNames[provider];
  return (
    <section className="card" aria-labelledby="values-title" data-testid="instructions">
      <h2 id="values-title">{t.steps.values}</h2>
      <p className="muted">{t.steps.valuesHelp(name)}</p>
      <div className="values">
        <CopyField
          id="redirect-uri"
          label={t.oidc.redirectUri}
          value={redirectUri}
          copyLabel={t.values.copy}
          copiedLabel={t.values.copied}
        />
      </div>
      <p>{t.oidc.scopes('openid email profile')}</p>
      <h3>{t.steps.instructions(name)}</h3>
      <ol className="instructions">
        {t.oidcInstructions[provider].map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
    </section>
  );
}
