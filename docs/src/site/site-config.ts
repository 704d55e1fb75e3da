/**
 * Settings of the documentation site that change without touching the components.
 * Values read from the environment are resolved at build time.
 */

export type VersionStatus = 'latest' | 'unreleased' | 'unmaintained';

export interface DocVersion {
  /** Stored in local storage when chosen. */
  id: string;
  /** Shown in the versions dropdown. */
  label: string;
  status: VersionStatus;
}

export interface Announcement {
  /** Changing the id shows the bar again to visitors who closed an earlier announcement. */
  id: string;
  /** Translation key of the text (see locales/<lang>/translation.json). */
  messageKey: string;
  /** Route the announcement links to, without the language prefix. */
  link: string;
}

export const siteConfig = {
  title: 'Sesame',
  /** Absolute address of the site, used in the sitemap and canonical links. */
  siteUrl: (process.env.DOCS_SITE_URL ?? 'http://localhost:8000').replace(/\/+$/, ''),
  /** URL of an analytics script loaded with `defer`; none when unset. */
  analyticsSrc: process.env.DOCS_ANALYTICS_SRC ?? '',
  languages: ['en', 'fr'] as const,
  defaultLanguage: 'en' as const,
  announcement: {
    id: 'scim-directory-sync-2025',
    messageKey: 'announcement.message',
    link: '/directory-sync/',
  } as Announcement | null,
  versions: [
    { id: 'v2', label: 'v2', status: 'latest' },
    { id: 'next', label: 'Next', status: 'unreleased' },
    { id: 'v1', label: 'v1', status: 'unmaintained' },
  ] as DocVersion[],
  github: 'https://github.com/sesame-identity/sesame',
};

export type Language = (typeof siteConfig.languages)[number];

/** Keys of local storage used by the site chrome. */
export const storageKeys = {
  theme: 'sesame-docs.theme',
  announcementDismissed: 'sesame-docs.announcement-dismissed',
  version: 'sesame-docs.version',
} as const;
