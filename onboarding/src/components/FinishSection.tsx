import { useState } from 'react';
import type { Messages } from '../i18n';

interface Props {
  t: Messages;
  organization: string;
  onFinish(): Promise<boolean>;
}

/** Step 5: the admin finishes the set-up (accepts being in charge), which ends the session on this page. */
export function FinishSection({ t, organization, onFinish }: Props) {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  const finish = async () => {
    setBusy(true);
    setFailed(false);
    const saved = await onFinish();
    setBusy(false);
    setFailed(!saved);
  };
  return (
    <section className="card" aria-labelledby="finish-title" data-testid="finish">
      <h2 id="finish-title">{t.finish.title}</h2>
      <p>{t.finish.text(organization)}</p>
      <div className="actions">
        <button type="button" className="primary" disabled={busy} onClick={() => void finish()}>
          {t.finish.button}
        </button>
      </div>
      {failed && (
        <p className="error" role="alert">
          {t.finish.failed}
        </p>
      )}
    </section>
  );
}
