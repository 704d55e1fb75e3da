import React, { useState } from 'react';
import { graphql, useStaticQuery } from 'gatsby';
import { useI18next } from '../site/translation';
import { Link } from './LocalizedLink';

interface SidebarNode {
  fields: { slug: string; lang: string };
  frontmatter: { title: string; sidebar_label: string | null; sidebar_position: number | null; category: string | null };
}

/** Order and nesting of the sidebar: categories are frontmatter `category` values. */
const categories: { id: string; children?: string[] }[] = [
  { id: 'getting-started' },
  { id: 'authentication' },
  { id: 'directories' },
  { id: 'onboarding' },
  { id: 'integrations', children: ['integrations/sso', 'integrations/scim'] },
];

function byPosition(a: SidebarNode, b: SidebarNode) {
  return (
    (a.frontmatter.sidebar_position ?? 99) - (b.frontmatter.sidebar_position ?? 99) || a.fields.slug.localeCompare(b.fields.slug)
  );
}

function Category({
  id,
  label,
  items,
  pathname,
  children,
}: {
  id: string;
  label: string;
  items: SidebarNode[];
  pathname: string;
  children?: React.ReactNode;
}) {
  const { originalPath } = useI18next();
  const containsActive = items.some((item) => item.fields.slug === originalPath) || pathname.includes(`/${id}/`);
  const [collapsed, setCollapsed] = useState(!containsActive);
  return (
    <li className={`sidebar-category ${collapsed ? 'sidebar-category--collapsed' : ''}`} data-category={id}>
      <button
        type="button"
        className="sidebar-category-toggle"
        aria-expanded={!collapsed}
        onClick={() => setCollapsed(!collapsed)}
      >
        {label}
      </button>
      <ul className="sidebar-items" hidden={collapsed}>
        {items.map((item) => (
          <li key={item.fields.slug}>
            <Link to={item.fields.slug} className="sidebar-link" activeClassName="sidebar-link--active">
              {item.frontmatter.sidebar_label ?? item.frontmatter.title}
            </Link>
          </li>
        ))}
        {children}
      </ul>
    </li>
  );
}

export function Sidebar({ pathname }: { pathname: string }) {
  const { language, t } = useI18next();
  const data = useStaticQuery<{ allMarkdownRemark: { nodes: SidebarNode[] } }>(graphql`
    query SidebarQuery {
      allMarkdownRemark(filter: { fields: { kind: { eq: "doc" } }, frontmatter: { unlisted: { ne: true } } }) {
        nodes {
          fields {
            slug
            lang
          }
          frontmatter {
            title
            sidebar_label
            sidebar_position
            category
          }
        }
      }
    }
  `);
  const nodes = data.allMarkdownRemark.nodes.filter((node) => node.fields.lang === language);
  const inCategory = (id: string) => nodes.filter((node) => node.frontmatter.category === id).sort(byPosition);
  return (
    <nav className="sidebar" aria-label={t('sidebar.label')}>
      <ul className="sidebar-menu">
        {categories.map((category) => (
          <Category
            key={category.id}
            id={category.id}
            label={t(`sidebar.${category.id}`)}
            items={inCategory(category.id)}
            pathname={pathname}
          >
            {category.children?.map((child) => (
              <Category key={child} id={child} label={t(`sidebar.${child}`)} items={inCategory(child)} pathname={pathname} />
            ))}
          </Category>
        ))}
      </ul>
    </nav>
  );
}
