import { providerNames, providers } from '../providers';
import type { SsoProviderType } from '../providers';
import type { Messages } from '../i18n';

interface Props {
  t: Messages;
  provider: SsoProviderType | null;
  onChange(provider: SsoProviderType): void;
}

/** Step 1: the identity provider. */
export function ProviderPicker({ t, provider, onChange }: Props) {
  return (
    <section className="card" aria-labelledby="provider-title">
      <h2 id="provider-title">{t.steps.provider}</h2>
      <p className="muted">{t.steps.providerHelp}</p>
      <div className="providers" role="radiogroup" aria-labelledby="provider-title">
        {providers.map((id) => (
          <label key={id} className={id === provider ? 'provider selected' : 'provider'}>
            <input type="radio" name="provider" value={id} checked={id === provider} onChange={() => onChange(id)} />
            {providerNames[id]}
          </label>
        ))}
      </div>
    </section>
  );
}
