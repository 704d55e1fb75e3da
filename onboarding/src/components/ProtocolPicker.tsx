import type { Messages } from '../i18n';
import { protocols } from '../providers';
import type { Protocol } from '../providers';

interface Props {
  t: Messages;
  protocol: Protocol;
  onChange(protocol: Protocol): void;
}

/** Before the provider: SAML 2.0 or OpenID Connect. */
export function ProtocolPicker({ t, protocol, onChange }: Props) {
  return (
    <section className="card" aria-labelledby="protocol-title" data-testid="protocol">
      <h2 id="protocol-title">{t.protocol.title}</h2>
      <p className="muted">{t.protocol.help}</p>
      <div className="providers" role="radiogroup" aria-labelledby="protocol-title">
        {protocols.map((id) => (
          <label key={id} className={id === protocol ? 'provider selected' : 'provider'}>
            <input type="radio" name="protocol" value={id} checked={id === protocol} onChange={() => onChange(id)} />
            {t.protocol[id]}
          </label>
        ))}
      </div>
    </section>
  );
}
