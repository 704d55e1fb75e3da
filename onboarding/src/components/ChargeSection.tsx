import { useState } from 'react';
import type { AdminInvitation } from '@sesame/contracts';
import { formatDate } from '../i18n';
import type { Language, Messages } from '../i18n';

interface Props {
  t: Messages;
  language: Language;
  invitation: AdminInvitation;
  onDecline(): Promise<boolean>;
}

/** Whether the admin is the right person: if someone else is in charge, they decline (after a confirmation). */
export function ChargeSection({ t, language, invitation, onDecline }: Props) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const accepted = invitation.admin.accepted_invitation_at;

  const decline = async () => {
    setBusy(true);
    setFailed(false);
    const saved = await onDecline();
    setBusy(false);
    setFailed(!saved);
  };

  return (
    <section className="card" aria-labelledby="charge-title" data-testid="charge">
      <h2 id="charge-title">{t.charge.title}</h2>
      <p>{t.charge.question(invitation.organization.name)}</p>
      {accepted && (
        <p className="success" data-testid="accepted">
          {t.charge.accepted(formatDate(language, accepted))}
        </p>
      )}
      {confirming ? (
        <div className="actions">
          <button type="button" className="danger" disabled={busy} onClick={() => void decline()}>
            {t.charge.confirmDecline}
          </button>
          <button type="button" className="secondary" disabled={busy} onClick={() => setConfirming(false)}>
            {t.charge.cancel}
          </button>
        </div>
      ) : (
        <div className="actions">
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
