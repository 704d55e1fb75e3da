import { useCallback, useEffect, useState } from 'react';
import type { DirectorySyncStatus } from '@sesame/contracts';
import { directorySyncStatus } from '../api';
import type { Failure } from '../api';
import { formatDate } from '../i18n';
import type { Language, Messages } from '../i18n';

/** How often the status is read again while the page is open. */
export const statusRefreshMs = 5_000;

interface Props {
  t: Messages;
  language: Language;
  onFailure(failure: Failure): void;
}

/** What the directory's SCIM client did, read again every few seconds: the page shows provisioning as it happens. */
export function DirectoryStatus({ t, language, onFailure }: Props) {
  const [status, setStatus] = useState<DirectorySyncStatus | null>(null);
  const read = useCallback(async () => {
    const answer = await directorySyncStatus();
    if (answer.ok) setStatus(answer.body);
    else if (answer.problem && answer.problem !== 'unavailable') onFailure(answer);
  }, [onFailure]);

  useEffect(() => {
    void read();
    const timer = window.setInterval(() => void read(), statusRefreshMs);
    return () => window.clearInterval(timer);
  }, [read]);

  const error = status?.last_error;
  return (
    <section className="card" aria-labelledby="status-title" data-testid="directory-status">
      <h2 id="status-title">{t.directory.status}</h2>
      {status && (
        <dl className="status">
          <dt>{t.directory.lastRequest}</dt>
          <dd data-testid="last-request">
            {status.last_request_at ? formatDate(language, status.last_request_at) : t.directory.noRequest}
          </dd>
          <dt>{t.directory.users}</dt>
          <dd data-testid="users-provisioned">{status.users_provisioned}</dd>
          <dt>{t.directory.groups}</dt>
          <dd data-testid="groups-provisioned">{status.groups_provisioned}</dd>
          <dt>{t.directory.lastError}</dt>
          <dd data-testid="last-error" className={error ? 'error' : undefined}>
            {error ? t.directory.error(formatDate(language, error.at), error.status, error.detail) : t.directory.noError}
          </dd>
        </dl>
      )}
      <div className="actions">
        <button type="button" className="secondary" data-testid="status-refresh" onClick={() => void read()}>
          {t.directory.refresh}
        </button>
      </div>
    </section>
  );
}
