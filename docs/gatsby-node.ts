import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { CreatePagesArgs, CreateNodeArgs, CreatePageArgs, CreateResolversArgs, GatsbyNode } from 'gatsby';
import { loadSampleFiles } from './src/samples/load';
import { precompress } from './src/search/precompress';
import { buildSearchIndex, type SearchPage } from './src/search/search-index';
import { expandSamples, type SampleLanguage } from './src/samples/render';
import type { SampleFile } from './src/samples/types';
import { checkLinks, localizeLinks, type BuiltPage } from './src/site/links';
import { siteConfig } from './src/site/site-config';
import { tagSlug } from './src/site/tags';

interface MarkdownNode {
  id: string;
  fileAbsolutePath: string;
  frontmatter: { title?: string; date?: string; tags?: string[]; unlisted?: boolean; slug?: string };
  fields?: { slug: string; lang: string; kind: 'doc' | 'blog' };
  parent: string;
}

let sampleFiles: SampleFile[] | undefined;
// Gatsby runs this file compiled into .cache: paths are resolved from the site folder (the working directory).
const samples = () => (sampleFiles ??= loadSampleFiles(resolve('samples')));
const template = (name: string) => resolve('src', 'templates', name);

export const onCreateNode: GatsbyNode['onCreateNode'] = ({ node, actions, getNode }: CreateNodeArgs) => {
  if (node.internal.type !== 'MarkdownRemark') return;
  const file = getNode(node.parent!) as unknown as { sourceInstanceName: string; relativePath: string };
  const [lang, ...rest] = file.relativePath.split('/');
  const kind = file.sourceInstanceName === 'blog' ? 'blog' : 'doc';
  const name = rest.join('/').replace(/\.md$/, '');
  let slug: string;
  if (kind === 'blog') slug = `/blog/${name.replace(/^\d{4}-\d{2}-\d{2}-/, '')}/`;
  else slug = `/${name.replace(/(^|\/)index$/, '')}/`.replace(/\/+/g, '/');
  actions.createNodeField({ node, name: 'slug', value: slug });
  actions.createNodeField({ node, name: 'lang', value: lang });
  actions.createNodeField({ node, name: 'kind', value: kind });
};

export const createSchemaCustomization: GatsbyNode['createSchemaCustomization'] = ({ actions }) => {
  actions.createTypes(`
    type MarkdownRemarkFrontmatter {
      title: String!
      description: String
      sidebar_label: String
      sidebar_position: Int
      category: String
      unlisted: Boolean
      date: Date @dateformat
      tags: [String!]
      authors: [String!]
    }
  `);
};

/**
 * `sampledHtml`: the page's HTML with each `<sesame-sample id>` replaced by the rendered sample,
 * and its links to other pages pointing to the page's language.
 */
export const createResolvers: GatsbyNode['createResolvers'] = ({ createResolvers }: CreateResolversArgs) => {
  createResolvers({
    MarkdownRemark: {
      sampledHtml: {
        type: 'String',
        async resolve(
          source: MarkdownNode,
          args: unknown,
          context: unknown,
          info: { schema: { getType(name: string): unknown } },
        ) {
          const type = info.schema.getType('MarkdownRemark') as {
            getFields(): Record<string, { resolve: (...args: unknown[]) => unknown }>;
          };
          const html = (await type.getFields().html!.resolve(source, args, context, { ...info, fieldName: 'html' })) as string;
          const language = source.fields?.lang ?? siteConfig.defaultLanguage;
          return localizeLinks(expandSamples(html, samples(), language as SampleLanguage), language, siteConfig.defaultLanguage);
        },
      },
    },
  });
};

export const createPages: GatsbyNode['createPages'] = async ({ graphql, actions, reporter }: CreatePagesArgs) => {
  const result = await graphql<{ allMarkdownRemark: { nodes: MarkdownNode[] } }>(`
    {
      allMarkdownRemark {
        nodes {
          id
          fileAbsolutePath
          frontmatter {
            title
            date
            tags
            unlisted
          }
          fields {
            slug
            lang
            kind
          }
        }
      }
    }
  `);
  if (result.errors || !result.data) {
    reporter.panicOnBuild('Could not read the markdown pages', result.errors);
    return;
  }
  const nodes = result.data.allMarkdownRemark.nodes;
  const byLanguage = new Map<string, Map<string, MarkdownNode>>();
  for (const node of nodes) {
    const { slug, lang } = node.fields!;
    const pages = byLanguage.get(lang) ?? new Map<string, MarkdownNode>();
    const other = pages.get(slug);
    // Duplicate routes only warn (SPEC.md section 2); the first file keeps the route.
    if (other) reporter.warn(`Duplicate route ${lang}:${slug} from ${node.fileAbsolutePath} and ${other.fileAbsolutePath}`);
    else pages.set(slug, node);
    byLanguage.set(lang, pages);
  }
  const [defaultLanguage, ...others] = siteConfig.languages;
  const reference = byLanguage.get(defaultLanguage) ?? new Map<string, MarkdownNode>();
  for (const lang of others) {
    const translated = byLanguage.get(lang) ?? new Map<string, MarkdownNode>();
    const missing = [...reference.keys()].filter((slug) => !translated.has(slug));
    const extra = [...translated.keys()].filter((slug) => !reference.has(slug));
    if (missing.length || extra.length)
      reporter.panicOnBuild(
        `Every page exists in every language: ${lang} lacks [${missing.join(', ')}], has only [${extra.join(', ')}]`,
      );
  }

  const docTemplate = template('doc.tsx');
  const postTemplate = template('blog-post.tsx');
  for (const [slug, node] of reference) {
    const unlisted = node.frontmatter.unlisted === true;
    actions.createPage({
      path: slug,
      component: node.fields!.kind === 'blog' ? postTemplate : docTemplate,
      context: { slug, unlisted },
    });
  }

  const tags = new Set<string>();
  for (const node of reference.values()) if (node.fields!.kind === 'blog') node.frontmatter.tags?.forEach((tag) => tags.add(tag));
  actions.createPage({ path: '/blog/', component: template('blog-list.tsx'), context: { view: 'list' } });
  actions.createPage({ path: '/blog/archive/', component: template('blog-list.tsx'), context: { view: 'archive' } });
  actions.createPage({ path: '/blog/tags/', component: template('blog-tags.tsx'), context: {} });
  for (const tag of tags)
    actions.createPage({ path: `/blog/tags/${tagSlug(tag)}/`, component: template('blog-tag.tsx'), context: { tag } });
};

export const onCreateWebpackConfig: GatsbyNode['onCreateWebpackConfig'] = ({ actions, stage, plugins }) => {
  actions.setWebpackConfig({
    module: {
      rules: [{ test: /[\\/]redoc[\\/]bundles[\\/].*\.js$/, use: [{ loader: resolve('webpack', 'redoc-offline-loader.js') }] }],
    },
    // react-dom evaluated when the page renders, not while the scripts start (webpack/react-dom-utils.js).
    ...(stage === 'build-javascript'
      ? { plugins: [plugins.normalModuleReplacement(/^\.\.?\/react-dom-utils$/, resolve('webpack', 'react-dom-utils.js'))] }
      : {}),
  });
};

export const onCreatePage: GatsbyNode['onCreatePage'] = ({ page, actions }: CreatePageArgs<{ i18n?: { language: string } }>) => {
  // gatsby-plugin-react-i18next 3.0.1 gives a translated 404 page the match path `/fr/fr/*`:
  // unknown paths under `/fr/` must render the French not-found page.
  const localized = /^\/([a-z]{2})\/404\/$/.exec(page.path);
  if (localized && page.context?.i18n && page.matchPath !== `/${localized[1]}/*`) {
    actions.deletePage(page);
    actions.createPage({ ...page, matchPath: `/${localized[1]}/*` });
  }
};

function htmlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return htmlFiles(path);
    return [path];
  });
}

/** Writes public/search/<language>.json: the listed guides of each language, section by section. */
async function writeSearchIndexes(graphql: CreatePagesArgs['graphql'], publicDir: string) {
  const result = await graphql<{ allMarkdownRemark: { nodes: Array<MarkdownNode & { html: string }> } }>(`
    {
      allMarkdownRemark(filter: { fields: { kind: { eq: "doc" } } }) {
        nodes {
          html
          frontmatter {
            title
            unlisted
          }
          fields {
            slug
            lang
          }
        }
      }
    }
  `);
  if (result.errors || !result.data) throw new Error(`Could not read the guides to index: ${String(result.errors)}`);
  mkdirSync(join(publicDir, 'search'), { recursive: true });
  for (const language of siteConfig.languages) {
    const prefix = language === siteConfig.defaultLanguage ? '' : `/${language}`;
    const pages: SearchPage[] = result.data.allMarkdownRemark.nodes
      .filter((node) => node.fields!.lang === language && node.frontmatter.unlisted !== true)
      .map((node) => ({ path: `${prefix}${node.fields!.slug}`, title: node.frontmatter.title!, html: node.html }))
      .sort((a, b) => a.path.localeCompare(b.path));
    writeFileSync(join(publicDir, 'search', `${language}.json`), JSON.stringify(buildSearchIndex(language, pages)));
  }
}

export const onPostBuild: GatsbyNode['onPostBuild'] = async ({ reporter, store, graphql }) => {
  const publicDir = join((store.getState() as { program: { directory: string } }).program.directory, 'public');
  await writeSearchIndexes(graphql, publicDir);
  const pages: BuiltPage[] = [];
  const files = new Set<string>();
  for (const file of htmlFiles(publicDir)) {
    const path = `/${relative(publicDir, file).split(sep).join('/')}`;
    if (path.endsWith('/index.html')) pages.push({ path: path.replace(/index\.html$/, ''), html: readFileSync(file, 'utf8') });
    else files.add(path);
  }
  const report = checkLinks(pages, files);
  for (const anchor of report.brokenAnchors) reporter.warn(`Broken anchor on ${anchor.page}: ${anchor.href}`);
  if (report.brokenLinks.length > 0)
    reporter.panicOnBuild(`Broken links:\n${report.brokenLinks.map((link) => `  ${link.page} -> ${link.href}`).join('\n')}`);
  else reporter.info(`Link check: ${pages.length} pages, no broken link, ${report.brokenAnchors.length} broken anchors`);
  const started = Date.now();
  const compressed = await precompress(publicDir);
  reporter.info(`Precompressed ${compressed} files (brotli and gzip) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
};
