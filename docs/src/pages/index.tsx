import React from 'react';
import { graphql, type HeadProps, type PageProps } from 'gatsby';
import { useTranslation } from '../site/translation';
import { Link } from '../components/LocalizedLink';
import { Layout } from '../components/Layout';
import { Seo } from '../components/Seo';
import { translate, type LocalesData } from '../site/i18n';

const cards = [
  { to: '/single-sign-on/', key: 'sso' },
  { to: '/directory-sync/', key: 'directorySync' },
  { to: '/magic-link/', key: 'magicLink' },
  { to: '/password/', key: 'password' },
  { to: '/implement-multi-factor-authentication-mfa/', key: 'mfa' },
  { to: '/webhooks/', key: 'webhooks' },
  { to: '/how-to-use-api-key/', key: 'apiKey' },
  { to: '/how-to-validate-jwt/', key: 'jwt' },
  { to: '/it-admin-onboarding/', key: 'itAdmin' },
] as const;

export default function Landing({ location }: PageProps<LocalesData>) {
  const { t } = useTranslation();
  return (
    <Layout pathname={location.pathname} className="landing">
      <header className="hero">
        <div className="container">
          <h1 className="hero-title">{t('landing.title')}</h1>
          <p className="hero-subtitle">{t('landing.subtitle')}</p>
          <div className="hero-actions">
            <Link className="button button--primary" to="/how-to-use-api-key/">
              {t('landing.start')}
            </Link>
            <Link className="button button--secondary" to="/api/">
              {t('navbar.api')}
            </Link>
          </div>
        </div>
      </header>
      <section className="container landing-section">
        <h2>{t('landing.guidesTitle')}</h2>
        <ul className="card-grid">
          {cards.map((card) => (
            <li key={card.key} className="card">
              <Link to={card.to}>
                <h3>{t(`landing.cards.${card.key}.title`)}</h3>
                <p>{t(`landing.cards.${card.key}.text`)}</p>
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <section className="container landing-section landing-integrations">
        <h2>{t('landing.integrationsTitle')}</h2>
        <p>{t('landing.integrationsText')}</p>
        <Link className="button button--secondary" to="/integrations/">
          {t('footer.allIntegrations')}
        </Link>
      </section>
    </Layout>
  );
}

export function Head({ data, pageContext, location }: HeadProps<LocalesData, { language: string }>) {
  return (
    <Seo
      title={translate(data, 'landing.pageTitle')}
      description={translate(data, 'landing.subtitle')}
      language={pageContext.language}
      pathname={location.pathname}
    />
  );
}

export const query = graphql`
  query Landing($language: String!) {
    locales: allLocale(filter: { language: { eq: $language } }) {
      edges {
        node {
          ns
          data
          language
        }
      }
    }
  }
`;
