import React from 'react';
import { useI18next } from 'gatsby-plugin-react-i18next';
import { pathInLanguage } from '../site/i18n';
import { Dropdown } from './Dropdown';

const names: Record<string, string> = { en: 'English', fr: 'Français' };

/** Switches language and keeps the current page (and its anchor). */
export function LanguageDropdown({ pathname }: { pathname: string }) {
  const { language, languages, t } = useI18next();
  return (
    <Dropdown className="language-dropdown" title={t('navbar.language')} label={<span>🌐 {names[language] ?? language}</span>}>
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
