import React from 'react';
import { useI18next } from '../site/translation';
import { pathInLanguage } from '../site/i18n';
import { Dropdown } from './Dropdown';

const names: Record<string, string> = { en: 'English', fr: 'Français' };

/** Switches language and keeps the current page (and its anchor). */
export function LanguageDropdown({ pathname }: { pathname: string }) {
  const { language, languages, t } = useI18next();
  return (
    <Dropdown
      className="language-dropdown"
      title={t('navbar.language')}
      label={
        <span className="language-label">
          <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true">
            <path
              fill="currentColor"
              d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm6.9 6h-2.9a15.7 15.7 0 0 0-1.4-3.6A8 8 0 0 1 18.9 8ZM12 4c.8 1.2 1.5 2.5 1.9 4h-3.8c.4-1.5 1.1-2.8 1.9-4ZM4.3 14a8.2 8.2 0 0 1 0-4h3.4a16.5 16.5 0 0 0 0 4H4.3Zm.8 2h2.9c.3 1.3.8 2.5 1.4 3.6A8 8 0 0 1 5.1 16ZM8 8H5.1a8 8 0 0 1 4.3-3.6C8.8 5.5 8.3 6.7 8 8Zm4 12c-.8-1.2-1.5-2.5-1.9-4h3.8c-.4 1.5-1.1 2.8-1.9 4Zm2.3-6H9.7a14.7 14.7 0 0 1 0-4h4.6a14.7 14.7 0 0 1 0 4Zm.3 5.6c.6-1.1 1.1-2.3 1.4-3.6h2.9a8 8 0 0 1-4.3 3.6ZM16.3 14a16.5 16.5 0 0 0 0-4h3.4a8.2 8.2 0 0 1 0 4h-3.4Z"
            />
          </svg>
          {names[language] ?? language}
        </span>
      }
    >
      {(close) =>
        languages.map((lng) => (
          <li key={lng} role="none">
            <a
              role="menuitem"
              lang={lng}
              hrefLang={lng}
              className={lng === language ? 'dropdown-item dropdown-item--active' : 'dropdown-item'}
              href={pathInLanguage(pathname, lng)}
              onClick={close}
            >
              {names[lng] ?? lng}
            </a>
          </li>
        ))
      }
    </Dropdown>
  );
}
