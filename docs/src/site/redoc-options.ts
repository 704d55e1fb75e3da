/** Settings of the embedded API reference (SPEC.md section 2). */

export interface OpenApiSpec {
  info?: { title?: string; description?: string };
  tags?: { name: string; description?: string }[];
  'x-tagGroups'?: { name: string; tags: string[] }[];
  [key: string]: unknown;
}

/** Redoc labels, translated; keys under `api.labels` in the locale files. */
export const redocLabelKeys = [
  'enum',
  'enumSingleValue',
  'enumArray',
  'default',
  'deprecated',
  'example',
  'examples',
  'recursive',
  'arrayOf',
  'webhook',
  'const',
  'noResultsFound',
  'download',
  'downloadSpecification',
  'responses',
  'callbackResponses',
  'requestSamples',
  'responseSamples',
] as const;

export function redocOptions(translateKey: (key: string) => string) {
  return {
    sortOperationsAlphabetically: true,
    hideDownloadButtons: true,
    hideDownloadButton: true,
    hideHostname: false,
    expandResponses: '200,201',
    jsonSampleExpandLevel: 2,
    scrollYOffset: '.navbar',
    labels: Object.fromEntries(redocLabelKeys.map((key) => [key, translateKey(`api.labels.${key}`)])),
    theme: {
      sidebar: { width: '300px' },
      typography: {
        fontFamily: 'var(--font-body)',
        headings: { fontFamily: 'var(--font-body)' },
        code: { fontFamily: 'var(--font-mono)' },
      },
      colors: { primary: { main: '#0f766e' } },
    },
  };
}

/**
 * Translates what the reader sees of the document's grouping: tag group names, tag descriptions
 * and the introduction. Tag names stay as they are: they make the reference's anchors.
 */
export function localizeSpec(spec: OpenApiSpec, translateKey: (key: string) => string): OpenApiSpec {
  const translated = (key: string, fallback: string | undefined) => {
    const value = translateKey(key);
    return value === key ? fallback : value;
  };
  return {
    ...spec,
    info: { ...spec.info, description: translated('api.introduction', spec.info?.description) ?? '' },
    tags: spec.tags?.map((tag) => ({ ...tag, description: translated(`api.tags.${tag.name}`, tag.description) ?? '' })),
    'x-tagGroups': spec['x-tagGroups']?.map((group) => ({
      ...group,
      name: translated(`api.tagGroups.${group.name}`, group.name) ?? group.name,
    })),
  };
}
