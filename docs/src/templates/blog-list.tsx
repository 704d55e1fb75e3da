import React from 'react';
import { graphql, type HeadProps, type PageProps } from 'gatsby';
import { useTranslation } from '../site/translation';
import { Link } from '../components/LocalizedLink';
import { Layout } from '../components/Layout';
import { Seo } from '../components/Seo';
import { translate, type LocalesData } from '../site/i18n';
import { tagSlug } from '../site/tags';

export interface PostSummary {
  fields: { slug: string };
  excerpt: string;
  frontmatter: { title: string; date: string; description: string | null; tags: string[] | null };
}
interface ListData extends LocalesData {
  allMarkdownRemark: { nodes: PostSummary[] };
}
interface ListContext {
  language: string;
  view: 'list' | 'archive';
}

export function PostList({ posts }: { posts: PostSummary[] }) {
  const { t, i18n } = useTranslation();
  return (
    <ul className="post-list">
      {posts.map((post) => (
        <li key={post.fields.slug} className="post-card">
          <h2>
            <Link to={post.fields.slug}>{post.frontmatter.title}</Link>
          </h2>
          <p className="blog-meta">
            <time dateTime={post.frontmatter.date}>
              {new Date(post.frontmatter.date).toLocaleDateString(i18n.language, {
                year: 'numeric',
                month: 'long',
                day: 'numeric',
                timeZone: 'UTC',
              })}
            </time>
          </p>
          <p>{post.frontmatter.description ?? post.excerpt}</p>
          {post.frontmatter.tags?.length ? (
            <p className="blog-tags">
              {post.frontmatter.tags.map((tag) => (
                <Link key={tag} className="tag" to={`/blog/tags/${tagSlug(tag)}/`}>
                  {tag}
                </Link>
              ))}
            </p>
          ) : null}
          <Link to={post.fields.slug} aria-label={`${t('blog.readMore')}: ${post.frontmatter.title}`}>
            {t('blog.readMore')} →
          </Link>
        </li>
      ))}
    </ul>
  );
}

export default function BlogList({ data, pageContext, location }: PageProps<ListData, ListContext>) {
  const { t, i18n } = useTranslation();
  const posts = data.allMarkdownRemark.nodes;
  if (pageContext.view === 'archive') {
    const years = new Map<number, PostSummary[]>();
    for (const post of posts) {
      const year = new Date(post.frontmatter.date).getUTCFullYear();
      years.set(year, [...(years.get(year) ?? []), post]);
    }
    return (
      <Layout pathname={location.pathname}>
        <div className="container blog-archive">
          <h1>{t('blog.archive')}</h1>
          {[...years].map(([year, yearPosts]) => (
            <section key={year}>
              <h2>{year}</h2>
              <ul>
                {yearPosts.map((post) => (
                  <li key={post.fields.slug}>
                    <time dateTime={post.frontmatter.date}>
                      {new Date(post.frontmatter.date).toLocaleDateString(i18n.language, {
                        month: 'long',
                        day: 'numeric',
                        timeZone: 'UTC',
                      })}
                    </time>{' '}
                    – <Link to={post.fields.slug}>{post.frontmatter.title}</Link>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      </Layout>
    );
  }
  return (
    <Layout pathname={location.pathname}>
      <div className="container blog-list">
        <h1>{t('blog.title')}</h1>
        <p>
          <Link to="/blog/archive/">{t('blog.archive')}</Link> · <Link to="/blog/tags/">{t('blog.allTags')}</Link>
        </p>
        <PostList posts={posts} />
      </div>
    </Layout>
  );
}

export function Head({ data, pageContext, location }: HeadProps<ListData, ListContext>) {
  return (
    <Seo
      title={translate(data, pageContext.view === 'archive' ? 'blog.archive' : 'blog.title')}
      language={pageContext.language}
      pathname={location.pathname}
    />
  );
}

export const query = graphql`
  query BlogList($language: String!) {
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
      filter: { fields: { kind: { eq: "blog" }, lang: { eq: $language } } }
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
