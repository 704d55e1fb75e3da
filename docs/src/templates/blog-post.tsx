import React, { useRef } from 'react';
import { graphql, type HeadProps, type PageProps } from 'gatsby';
import { useTranslation } from '../site/translation';
import { Link } from '../components/LocalizedLink';
import { Layout } from '../components/Layout';
import { Seo } from '../components/Seo';
import { Toc, type Heading } from '../components/Toc';
import { useCodeCopy } from '../components/useCodeCopy';
import type { LocalesData } from '../site/i18n';
import { tagSlug } from '../site/tags';

interface PostData extends LocalesData {
  markdownRemark: {
    sampledHtml: string;
    headings: Heading[];
    frontmatter: { title: string; description: string | null; date: string; tags: string[] | null; authors: string[] | null };
  } | null;
}

export default function BlogPost({ data, location }: PageProps<PostData, { language: string }>) {
  const { t, i18n } = useTranslation();
  const content = useRef<HTMLDivElement>(null);
  useCodeCopy(content, { copy: t('code.copy'), copied: t('code.copied') });
  const post = data.markdownRemark;
  if (!post) throw new Error(`No content for ${location.pathname}`);
  const date = new Date(post.frontmatter.date).toLocaleDateString(i18n.language, {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
  return (
    <Layout pathname={location.pathname}>
      <div className="doc-page blog-page">
        <article className="doc-article">
          <h1>{post.frontmatter.title}</h1>
          <p className="blog-meta">
            <time dateTime={post.frontmatter.date}>{date}</time>
            {post.frontmatter.authors?.length ? ` · ${post.frontmatter.authors.join(', ')}` : ''}
          </p>
          <div className="markdown" ref={content} dangerouslySetInnerHTML={{ __html: post.sampledHtml }} />
          {post.frontmatter.tags?.length ? (
            <p className="blog-tags">
              {t('blog.tags')}:{' '}
              {post.frontmatter.tags.map((tag) => (
                <Link key={tag} className="tag" to={`/blog/tags/${tagSlug(tag)}/`}>
                  {tag}
                </Link>
              ))}
            </p>
          ) : null}
          <p>
            <Link to="/blog/">← {t('blog.all')}</Link>
          </p>
        </article>
        <aside className="toc-container">
          <Toc headings={post.headings} />
        </aside>
      </div>
    </Layout>
  );
}

export function Head({ data, pageContext, location }: HeadProps<PostData, { language: string }>) {
  return (
    <Seo
      title={data.markdownRemark?.frontmatter.title ?? 'Blog'}
      description={data.markdownRemark?.frontmatter.description ?? undefined}
      language={pageContext.language}
      pathname={location.pathname}
    />
  );
}

export const query = graphql`
  query BlogPost($language: String!, $slug: String!) {
    locales: allLocale(filter: { language: { eq: $language } }) {
      edges {
        node {
          ns
          data
          language
        }
      }
    }
    markdownRemark(fields: { slug: { eq: $slug }, lang: { eq: $language }, kind: { eq: "blog" } }) {
      sampledHtml
      headings {
        id
        value
        depth
      }
      frontmatter {
        title
        description
        date
        tags
        authors
      }
    }
  }
`;
