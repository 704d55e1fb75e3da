import React, { useRef } from 'react';
import { graphql, type HeadProps, type PageProps } from 'gatsby';
import { useTranslation } from '../site/translation';
import { Layout } from '../components/Layout';
import { Seo } from '../components/Seo';
import { Toc, type Heading } from '../components/Toc';
import { useCodeCopy } from '../components/useCodeCopy';
import { useSampleTabs } from '../components/useSampleTabs';
import type { LocalesData } from '../site/i18n';
import { translate } from '../site/i18n';

interface DocData extends LocalesData {
  markdownRemark: {
    sampledHtml: string;
    headings: Heading[];
    frontmatter: { title: string; description: string | null; unlisted: boolean | null };
  } | null;
}
interface DocContext {
  language: string;
  slug: string;
  unlisted: boolean;
}

export default function DocTemplate({ data, location }: PageProps<DocData, DocContext>) {
  const { t } = useTranslation();
  const content = useRef<HTMLDivElement>(null);
  useCodeCopy(content, { copy: t('code.copy'), copied: t('code.copied') });
  useSampleTabs(content);
  const page = data.markdownRemark;
  if (!page) throw new Error(`No content for ${location.pathname}`);
  return (
    <Layout pathname={location.pathname} sidebar>
      <div className="doc-page">
        <article className="doc-article">
          {page.frontmatter.unlisted ? (
            <div className="unlisted-banner" role="note">
              <p className="unlisted-title">{t('unlisted.title')}</p>
              <p>{t('unlisted.message')}</p>
            </div>
          ) : null}
          <h1>{page.frontmatter.title}</h1>
          <div className="markdown" ref={content} dangerouslySetInnerHTML={{ __html: page.sampledHtml }} />
        </article>
        <aside className="toc-container">
          <Toc headings={page.headings} />
        </aside>
      </div>
    </Layout>
  );
}

export function Head({ data, pageContext, location }: HeadProps<DocData, DocContext>) {
  const page = data.markdownRemark;
  return (
    <Seo
      title={page?.frontmatter.title ?? translate(data, 'notFound.title')}
      description={page?.frontmatter.description ?? undefined}
      language={pageContext.language}
      pathname={location.pathname}
      noindex={pageContext.unlisted}
    />
  );
}

export const query = graphql`
  query DocPage($language: String!, $slug: String!) {
    locales: allLocale(filter: { language: { eq: $language } }) {
      edges {
        node {
          ns
          data
          language
        }
      }
    }
    markdownRemark(fields: { slug: { eq: $slug }, lang: { eq: $language }, kind: { eq: "doc" } }) {
      sampledHtml
      headings {
        id
        value
        depth
      }
      frontmatter {
        title
        description
        unlisted
      }
    }
  }
`;
