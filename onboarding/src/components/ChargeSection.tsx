import { useState } from 'react';
import type { AdminInvitation } from '@sesame/contracts';
import { formatDate } from '../i18n';
import type { Language, Messages } from '../i18n';

interface Props {
  t: Messages;
  language: Language;
  invitation: AdminInvitation;
  onAnswer(choice: 'accept' | 'decline'): Promise<boolean>;
}

/** Accept or decline being in charge of the organization's single sign-on. */
export function ChargeSection({ t, language, invitation, onAnswer }: Props) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const accepted = invitation.admin.accepted_invitation_at;

  const send = async (choice: 'accept' | 'decline') => {
    setBusy(true);
    setFailed(false);
    const saved = await onAnswer(choice);
    setBusy(false);
    setFailed(!saved);
  };

  if (accepted)
    return (
      <section className="card accepted" data-testid="accepted">
        <p>{t.charge.accepted(formatDate(language, accepted))}</p>
      </section>
    );
  return (
    <section className="card" aria-labelledby="charge-title" data-testid="charge">
      <h2 id="charge-title">{t.charge.title}</h2>
      <p>{t.charge.question(invitation.organization.name)}</p>
      {confirming ? (
        <div className="actions">
          <button type="button" className="danger" disabled={busy} onClick={() => void send('decline')}>
            {t.charge.confirmDecline}
          </button>
          <button type="button" className="secondary" disabled={busy} onClick={() => setConfirming(false)}>
            {t.charge.cancel}
          </button>
        </div>
      ) : (
        <div className="actions">
          <button type="button" className="primary" disabled={busy} onClick={() => void send('accept')}>
            {t.charge.accept}
          </button>
          <button type="button" className="secondary" disabled={busy} onClick={() => setConfirming(true)}>
            {t.charge.decline}
          </button>
        </div>
      )}
      {failed && (
        <p className="error" role="alert">
          {t.charge.failed}
        </p>
      )}
    </section>
  );
}
