import { useState } from 'react';
import { providerNames, providers } from '../providers';
import type { Provider } from '../providers';
import type { Messages } from '../i18n';

/** Step 1, the provider; step 2, what to do in that provider. */
export function ProviderSteps({ t }: { t: Messages }) {
  const [provider, setProvider] = useState<Provider | null>(null);
  return (
    <>
      <section className="card" aria-labelledby="provider-title">
        <h2 id="provider-title">{t.steps.provider}</h2>
        <p className="muted">{t.steps.providerHelp}</p>
        <div className="providers" role="radiogroup" aria-labelledby="provider-title">
          {providers.map((id) => (
            <label key={id} className={id === provider ? 'provider selected' : 'provider'}>
              <input type="radio" name="provider" value={id} checked={id === provider} onChange={() => setProvider(id)} />
              {providerNames[id]}
            </label>
          ))}
        </div>
      </section>
      {provider && (
        <section className="card" aria-labelledby="values-title" data-testid="instructions">
          <h2 id="values-title">{t.steps.values}</h2>
          <h3>{t.steps.instructions(providerNames[provider])}</h3>
          <ol className="instructions">
            {t.instructions[provider].map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        </section>
      )}
    </>
  );
}
