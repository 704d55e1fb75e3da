import React from 'react';
import { useTranslation } from '../site/translation';
import { Link } from './LocalizedLink';

export function Footer() {
  const { t } = useTranslation();
  return (
    <footer className="footer">
      <div className="footer-columns">
        <div>
          <p className="footer-title">{t('footer.integrations')}</p>
          <ul>
            <li>
              <Link to="/integrations/">{t('footer.allIntegrations')}</Link>
            </li>
            <li>
              <Link to="/integrations/#sso-saml">{t('footer.ssoTutorials')}</Link>
            </li>
            <li>
              <Link to="/integrations/#scim-provisioning">{t('footer.scimTutorials')}</Link>
            </li>
          </ul>
        </div>
        <div>
          <p className="footer-title">{t('footer.guides')}</p>
          <ul>
            <li>
              <Link to="/how-to-use-api-key/">{t('footer.apiKey')}</Link>
            </li>
            <li>
              <Link to="/webhooks/">{t('footer.webhooks')}</Link>
            </li>
            <li>
              <Link to="/api/">{t('navbar.api')}</Link>
            </li>
          </ul>
        </div>
        <div>
          <p className="footer-title">{t('footer.more')}</p>
          <ul>
            <li>
              <Link to="/blog/">{t('navbar.blog')}</Link>
            </li>
            <li>
              <Link to="/blog/archive/">{t('blog.archive')}</Link>
            </li>
          </ul>
        </div>
      </div>
      <p className="footer-copyright">{t('footer.copyright', { year: 2025 })}</p>
    </footer>
  );
}
