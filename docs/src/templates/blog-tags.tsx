import React from 'react';
import { graphql, type HeadProps, type PageProps } from 'gatsby';
import { useTranslation } from '../site/translation';
import { Link } from '../components/LocalizedLink';
import { Layout } from '../components/Layout';
import { Seo } from '../components/Seo';
import { translate, type LocalesData } from '../site/i18n';
import { tagSlug } from '../site/tags';

interface TagsData extends LocalesData {
  allMarkdownRemark: { group: { fieldValue: string; totalCount: number }[] };
}

export default function BlogTags({ data, location }: PageProps<TagsData>) {
  const { t } = useTranslation();
  return (
    <Layout pathname={location.pathname}>
      <div className="container">
        <h1>{t('blog.allTags')}</h1>
        <ul className="tag-list">
          {data.allMarkdownRemark.group.map((tag) => (
            <li key={tag.fieldValue}>
              <Link className="tag" to={`/blog/tags/${tagSlug(tag.fieldValue)}/`}>
                {tag.fieldValue} <span className="tag-count">{tag.totalCount}</span>
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </Layout>
  );
}

export function Head({ data, pageContext, location }: HeadProps<TagsData, { language: string }>) {
  return <Seo title={translate(data, 'blog.allTags')} language={pageContext.language} pathname={location.pathname} />;
}

export const query = graphql`
  query BlogTags($language: String!) {
    locales: allLocale(filter: { language: { eq: $language } }) {
      edges {
        node {
          ns
          data
          language
        }
      }
    }
    allMarkdownRemark(filter: { fields: { kind: { eq: "blog" }, lang: { eq: $language } } }) {
      group(field: { frontmatter: { tags: SELECT } }) {
        fieldValue
        totalCount
      }
    }
  }
`;
