import type { SsoProviderType } from '../providers';
import type { Messages } from '../i18n';

interface Props<P extends SsoProviderType> {
  t: Messages;
  /** The providers offered, in order, and their display names. */
  choices: readonly P[];
  names: Record<P, string>;
  help: string;
  provider: P | null;
  onChange(provider: P): void;
}

/** Step 1: the identity provider. */
export function ProviderPicker<P extends SsoProviderType>({ t, choices, names, help, provider, onChange }: Props<P>) {
  return (
    <section className="card" aria-labelledby="provider-title">
      <h2 id="provider-title">{t.steps.provider}</h2>
      <p className="muted">{help}</p>
      <div className="providers" role="radiogroup" aria-labelledby="provider-title">
        {choices.map((id) => (
          <label key={id} className={id === provider ? 'provider selected' : 'provider'}>
            <input type="radio" name="provider" value={id} checked={id === provider} onChange={() => onChange(id)} />
            {names[id]}
          </label>
        ))}
      </div>
    </section>
  );
}
