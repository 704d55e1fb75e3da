import React, { useEffect, useState } from 'react';
import { useTranslation } from '../site/translation';
import { storageKeys } from '../site/site-config';

type Theme = 'light' | 'dark';

/** Light/dark switch. Light by default; the system preference is deliberately not followed. */
export function ThemeToggle() {
  const { t } = useTranslation();
  const [theme, setTheme] = useState<Theme>('light');
  useEffect(() => setTheme(document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light'), []);
  const toggle = () => {
    const next: Theme = theme === 'dark' ? 'light' : 'dark';
    document.documentElement.dataset.theme = next;
    try {
      window.localStorage.setItem(storageKeys.theme, next);
    } catch {
      // Without storage the choice lasts for this page only.
    }
    setTheme(next);
  };
  const label = theme === 'dark' ? t('theme.toLight') : t('theme.toDark');
  return (
    <button type="button" className="theme-toggle" onClick={toggle} title={label} aria-label={label} data-theme-current={theme}>
      {theme === 'dark' ? '☀' : '☾'}
    </button>
  );
}
