import React from 'react';
import { graphql, type HeadProps, type PageProps } from 'gatsby';
import { useTranslation } from '../site/translation';
import { Link } from '../components/LocalizedLink';
import { Layout } from '../components/Layout';
import { Seo } from '../components/Seo';
import { translate, type LocalesData } from '../site/i18n';
import { PostList, type PostSummary } from './blog-list';

interface TagData extends LocalesData {
  allMarkdownRemark: { nodes: PostSummary[] };
}
interface TagContext {
  language: string;
  tag: string;
}

export default function BlogTag({ data, pageContext, location }: PageProps<TagData, TagContext>) {
  const { t } = useTranslation();
  return (
    <Layout pathname={location.pathname}>
      <div className="container blog-list">
        <h1>{t('blog.taggedWith', { tag: pageContext.tag, count: data.allMarkdownRemark.nodes.length })}</h1>
        <p>
          <Link to="/blog/tags/">{t('blog.allTags')}</Link>
        </p>
        <PostList posts={data.allMarkdownRemark.nodes} />
      </div>
    </Layout>
  );
}

export function Head({ data, pageContext, location }: HeadProps<TagData, TagContext>) {
  return (
    <Seo
      title={`${translate(data, 'blog.tags')}: ${pageContext.tag}`}
      language={pageContext.language}
      pathname={location.pathname}
    />
  );
}

export const query = graphql`
  query BlogTag($language: String!, $tag: String!) {
    locales: allLocale(filter: { language: { eq: $language } }) {
      edges {
        node {
          ns
          data
          language
        }
      }
    }
    allMarkdownRemark(
      filter: { fields: { kind: { eq: "blog" }, lang: { eq: $language } }, frontmatter: { tags: { in: [$tag] } } }
      sort: { frontmatter: { date: DESC } }
    ) {
      nodes {
        fields {
          slug
        }
        excerpt(pruneLength: 200)
        frontmatter {
          title
          date
          description
          tags
        }
      }
    }
  }
`;
