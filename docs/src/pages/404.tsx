import React from 'react';
import { graphql, type HeadProps, type PageProps } from 'gatsby';
import { useTranslation } from '../site/translation';
import { Link } from '../components/LocalizedLink';
import { Layout } from '../components/Layout';
import { Seo } from '../components/Seo';
import { translate, type LocalesData } from '../site/i18n';

export default function NotFound({ location }: PageProps<LocalesData>) {
  const { t } = useTranslation();
  return (
    <Layout pathname={location.pathname}>
      <div className="container not-found">
        <h1>{t('notFound.title')}</h1>
        <p>{t('notFound.message')}</p>
        <p>{t('notFound.tellOwner')}</p>
        <p>
          <Link className="button button--primary" to="/">
            {t('notFound.home')}
          </Link>
        </p>
      </div>
    </Layout>
  );
}

export function Head({ data, pageContext, location }: HeadProps<LocalesData, { language: string }>) {
  return <Seo title={translate(data, 'notFound.title')} language={pageContext.language} pathname={location.pathname} noindex />;
}

export const query = graphql`
  query NotFound($language: String!) {
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
