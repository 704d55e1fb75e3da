import React from 'react';
import { useTranslation } from '../site/translation';
import { Link } from './LocalizedLink';
import { siteConfig, storageKeys } from '../site/site-config';

/**
 * Optional bar above the navigation. Its dismissal is stored in local storage under the
 * announcement's id; an inline script in `<head>` hides it before the first paint on later visits.
 */
export function AnnouncementBar() {
  const { t } = useTranslation();
  const announcement = siteConfig.announcement;
  if (!announcement) return null;
  const dismiss = () => {
    try {
      window.localStorage.setItem(storageKeys.announcementDismissed, announcement.id);
    } catch {
      // Without storage the bar closes for this page only.
    }
    document.documentElement.dataset.announcementDismissed = 'true';
  };
  return (
    <div className="announcement-bar" role="region" aria-label={t('announcement.label')}>
      <p className="announcement-content">
        {t(announcement.messageKey)} <Link to={announcement.link}>{t('announcement.link')}</Link>
      </p>
      <button
        type="button"
        className="announcement-close"
        onClick={dismiss}
        aria-label={t('announcement.close')}
        title={t('announcement.close')}
      >
        ×
      </button>
    </div>
  );
}
