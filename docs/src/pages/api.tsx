import React, { Suspense, useCallback, useEffect, useState } from 'react';
import { graphql, type HeadProps, type PageProps } from 'gatsby';
import { useTranslation } from '../site/translation';
import { Layout } from '../components/Layout';
import { Seo } from '../components/Seo';
import { translate, type LocalesData } from '../site/i18n';
import { localizeSpec, type OpenApiSpec } from '../site/redoc-options';

// redoc renders a bare spinner when rendered on the server: it is loaded in the browser only.
const ApiReference = React.lazy(() => import('../components/ApiReference'));

type State = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'ready'; spec: OpenApiSpec };

export default function ApiPage({ location }: PageProps<LocalesData>) {
  const { t, i18n } = useTranslation();
  const [state, setState] = useState<State>({ status: 'loading' });
  const load = useCallback(async () => {
    setState({ status: 'loading' });
    try {
      const response = await fetch('/openapi.json', { cache: 'no-cache' });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const spec = (await response.json()) as OpenApiSpec;
      setState({ status: 'ready', spec: localizeSpec(spec, (key) => t(key)) });
    } catch (error) {
      setState({ status: 'failed', message: (error as Error).message });
    }
  }, [t]);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <Layout pathname={location.pathname} className="api-page">
      <h1 className="visually-hidden">{t('api.title')}</h1>
      {state.status === 'loading' ? <p className="api-loading container">{t('api.loading')}</p> : null}
      {state.status === 'failed' ? (
        <div className="load-failed container" role="alert">
          <p>{t('api.failed')}</p>
          <p className="load-failed-detail">{state.message}</p>
          <button type="button" className="button button--primary" onClick={() => void load()}>
            {t('api.retry')}
          </button>
        </div>
      ) : null}
      {state.status === 'ready' ? (
        <Suspense fallback={<p className="api-loading container">{t('api.loading')}</p>}>
          <ApiReference spec={state.spec} language={i18n.language} />
        </Suspense>
      ) : null}
    </Layout>
  );
}

export function Head({ data, pageContext, location }: HeadProps<LocalesData, { language: string }>) {
  return (
    <Seo
      title={translate(data, 'api.title')}
      description={translate(data, 'api.description')}
      language={pageContext.language}
      pathname={location.pathname}
    />
  );
}

export const query = graphql`
  query ApiPage($language: String!) {
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
