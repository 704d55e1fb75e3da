import type { SamlConfig } from '../api';
import type { Messages } from '../i18n';
import { providerNames } from '../providers';
import type { SsoProviderType } from '../providers';
import { CopyField } from './CopyField';

/** Step 2: our values, to copy, and what to do in the chosen identity provider. */
export function ProviderInstructions({ t, provider, saml }: { t: Messages; provider: SsoProviderType; saml: SamlConfig }) {
  const name = providerNames[provider];
  const field = (id: string, label: string, value: string) => (
    <CopyField id={id} label={label} value={value} copyLabel={t.values.copy} copiedLabel={t.values.copied} />
  );
  return (
    <section className="card" aria-labelledby="values-title" data-testid="instructions">
      <h2 id="values-title">{t.steps.values}</h2>
      <p className="muted">{t.steps.valuesHelp(name)}</p>
      <div className="values">
        {field('acs-url', t.values.acsUrl, saml.acs_url)}
        {field('entity-id', t.values.entityId, saml.entity_id)}
        {field('metadata-url', t.values.metadataUrl, saml.cryptr_metadata_url)}
      </div>
      <h3>{t.steps.instructions(name)}</h3>
      <ol className="instructions">
        {t.instructions[provider].map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
    </section>
  );
}
