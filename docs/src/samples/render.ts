import { STATUS_CODES } from 'node:http';
import Prism from 'prismjs';
import loadLanguages from 'prismjs/components/index';
import type { Sample, SampleFile } from './types';
import { displayVariables } from './load';
import { fillPath, parseOperation, queryString, substitute } from './template';
import { snippetCode } from './snippets';
import en from '../../locales/en/translation.json';
import fr from '../../locales/fr/translation.json';

loadLanguages(['bash', 'json', 'typescript']);

const labels = { en: en.samples, fr: fr.samples };
export type SampleLanguage = keyof typeof labels;

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function codeBlock(code: string, language: 'bash' | 'json' | 'typescript'): string {
  const grammar = Prism.languages[language]!;
  const highlighted = Prism.highlight(code, grammar, language);
  return `<div class="gatsby-highlight" data-language="${language}"><pre class="language-${language}"><code class="language-${language}">${highlighted}</code></pre></div>`;
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The request as a curl command, with the display values of the variables. */
export function curlCommand(sample: Sample, variables: Record<string, string>): string {
  const { method, path } = parseOperation(sample.operation);
  const request = substitute(sample.request, variables);
  const query = queryString(request.query);
  const url = `${variables.base_url}${fillPath(path, request.path).replace(/%24/g, '$')}${query}`;
  const parts = [`curl${query.includes('[') ? ' -g' : ''}${method === 'GET' ? '' : ` -X ${method}`} "${url}"`];
  if (sample.auth === 'bearer') parts.push(`-H "Authorization: Bearer ${variables.access_token}"`);
  if (request.json) {
    parts.push('-H "Content-Type: application/json"');
    parts.push(`-d ${shellQuote(JSON.stringify(request.json, null, 2))}`);
  } else if (request.form) {
    for (const [key, value] of Object.entries(request.form))
      for (const item of [value].flat()) parts.push(`--data-urlencode "${key}=${item}"`);
  }
  return parts.join(' \\\n  ');
}

/**
 * The request in curl and, when the sample has one, in its Node SDK snippet: a tab list (WAI-ARIA
 * tabs, curl selected; `useSampleTabs` makes the tabs work in the browser) over one panel each.
 */
function requestBlocks(sample: Sample, variables: Record<string, string>, text: (typeof labels)[SampleLanguage]): string[] {
  const curl = codeBlock(curlCommand(sample, variables), 'bash');
  if (sample.sdk === undefined) return [curl];
  const panels = [
    { key: 'curl', label: text.curl, html: curl },
    { key: 'sdk', label: text.sdk, html: codeBlock(snippetCode(sample.sdk, variables), 'typescript') },
  ];
  const id = (key: string) => `sample-${sample.id}-${key}`;
  return [
    `<div class="sample-tabs" role="tablist" aria-label="${escapeHtml(text.languages)}">`,
    ...panels.map(
      ({ key, label }, index) =>
        `<button type="button" role="tab" class="sample-tab" id="${id(key)}-tab" data-sample-tab="${key}" aria-controls="${id(key)}" aria-selected="${index === 0}" tabindex="${index === 0 ? 0 : -1}">${escapeHtml(label)}</button>`,
    ),
    '</div>',
    ...panels.map(
      ({ key, html }, index) =>
        `<div role="tabpanel" class="sample-panel" id="${id(key)}" data-sample-panel="${key}" aria-labelledby="${id(key)}-tab" tabindex="0"${index === 0 ? '' : ' hidden'}>\n${html}\n</div>`,
    ),
  ];
}

/** HTML of a sample: the request (curl, and the Node SDK when it has a snippet) and the documented response, highlighted. */
export function renderSample(file: SampleFile, sample: Sample, language: SampleLanguage): string {
  const variables = displayVariables(file);
  const text = labels[language];
  const status = sample.response.status;
  const response = JSON.stringify(substitute(sample.response.body, variables), null, 2);
  return [
    `<div class="api-sample" id="sample-${sample.id}" data-operation="${escapeHtml(sample.operation)}">`,
    `<p class="api-sample-title">${text.request} <code>${escapeHtml(sample.operation)}</code></p>`,
    ...requestBlocks(sample, variables, text),
    `<p class="api-sample-title">${text.response} <code>${status} ${escapeHtml(STATUS_CODES[status] ?? '')}</code></p>`,
    codeBlock(response, 'json'),
    '</div>',
  ].join('\n');
}

const placeholder = /<sesame-sample\s+id="([a-z0-9-]+)"\s*>\s*<\/sesame-sample>/g;

/** Ids of the samples a page's HTML refers to. */
export function sampleIdsIn(html: string): string[] {
  return [...html.matchAll(placeholder)].map((match) => match[1]!);
}

/** Replaces each `<sesame-sample id="...">` of a page by the rendered sample. Unknown ids throw. */
export function expandSamples(html: string, files: SampleFile[], language: SampleLanguage): string {
  return html.replace(placeholder, (_, id: string) => {
    for (const file of files) {
      const sample = file.samples.find((candidate) => candidate.id === id);
      if (sample) return renderSample(file, sample, language);
    }
    throw new Error(`Unknown sample "${id}": add it to docs/samples/*.samples.json`);
  });
}
