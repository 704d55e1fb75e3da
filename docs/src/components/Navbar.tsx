import React, { useEffect, useState } from 'react';
import { useTranslation } from '../site/translation';
import { Link } from './LocalizedLink';
import { LanguageDropdown } from './LanguageDropdown';
import { ThemeToggle } from './ThemeToggle';
import { VersionDropdown } from './VersionDropdown';
import { Search } from './Search';
import { Sidebar } from './Sidebar';

export const navLinks = [
  { to: '/single-sign-on/', key: 'navbar.sso' },
  { to: '/directory-sync/', key: 'navbar.directorySync' },
  { to: '/magic-link/', key: 'navbar.magicLink' },
  { to: '/password/', key: 'navbar.password' },
  { to: '/implement-multi-factor-authentication-mfa/', key: 'navbar.mfa' },
] as const;

export function Navbar({ pathname, showSidebar }: { pathname: string; showSidebar: boolean }) {
  const { t } = useTranslation();
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [pathname]);
  useEffect(() => {
    document.body.classList.toggle('mobile-menu-open', menuOpen);
  }, [menuOpen]);
  return (
    <nav className="navbar" aria-label={t('navbar.label')}>
      <div className="navbar-inner">
        <button
          type="button"
          className="navbar-toggle"
          aria-label={t('navbar.openMenu')}
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          onClick={() => setMenuOpen(true)}
        >
          <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true">
            <path d="M3 6h18M3 12h18M3 18h18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
        <Link to="/" className="navbar-brand">
          <img src="/logo.svg" alt="" width="28" height="28" />
          <span>Sesame</span>
        </Link>
        <div className="navbar-items navbar-items--left">
          {navLinks.map((link) => (
            <Link key={link.to} to={link.to} className="navbar-link" activeClassName="navbar-link--active" partiallyActive>
              {t(link.key)}
            </Link>
          ))}
          <Link to="/blog/" className="navbar-link" activeClassName="navbar-link--active" partiallyActive>
            {t('navbar.blog')}
          </Link>
        </div>
        <div className="navbar-items navbar-items--right">
          <Search />
          <Link to="/api/" className="navbar-link navbar-link--api" activeClassName="navbar-link--active">
            {t('navbar.api')}
          </Link>
          <VersionDropdown />
          <LanguageDropdown pathname={pathname} />
        </div>
        <ThemeToggle />
      </div>
      {menuOpen ? (
        <div className="mobile-menu-backdrop" onClick={() => setMenuOpen(false)} role="presentation">
          <div
            id="mobile-menu"
            className="mobile-menu"
            role="dialog"
            aria-modal="true"
            aria-label={t('navbar.menu')}
            onClick={(event) => event.stopPropagation()}
          >
            <div className="mobile-menu-header">
              <Link to="/" className="navbar-brand">
                <span>Sesame</span>
              </Link>
              <button
                type="button"
                className="mobile-menu-close"
                aria-label={t('navbar.closeMenu')}
                onClick={() => setMenuOpen(false)}
              >
                ×
              </button>
            </div>
            <ul className="mobile-menu-links">
              {[...navLinks, { to: '/blog/', key: 'navbar.blog' }, { to: '/api/', key: 'navbar.api' }].map((link) => (
                <li key={link.to}>
                  <Link to={link.to}>{t(link.key)}</Link>
                </li>
              ))}
            </ul>
            <div className="mobile-menu-controls">
              <VersionDropdown />
              <LanguageDropdown pathname={pathname} />
            </div>
            {showSidebar ? <Sidebar pathname={pathname} /> : null}
          </div>
        </div>
      ) : null}
    </nav>
  );
}
