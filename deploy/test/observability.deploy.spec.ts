/**
 * The chart's PrometheusRule and Grafana dashboard kept honest: every alert links a runbook that
 * exists in deploy/OPERATIONS.md, and every metric an alert or a panel reads is one the code
 * registers (a renamed metric would otherwise leave an alert that never fires).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Metrics } from '../../services/platform/src/metrics/metrics';
import { chartDir, ciValues, named, ofKind, render, repoRoot } from './support/chart';
import { helmBinary } from './support/helm-binary';

/** Metrics an alert reads that other exporters provide, and which one. */
const external: Record<string, string> = { kube_pod_status_ready: 'kube-state-metrics' };
const promqlWords = new Set(['and', 'or', 'unless', 'offset', 'bool', 'on', 'ignoring', 'group_left', 'group_right']);

/** The metric names a PromQL expression reads: identifiers that are not functions, keywords or grouping labels. */
function metricNamesOf(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring)\s*\([^)]*\)/g, ' ');
  const names = [...bare.matchAll(/\b([a-zA-Z_:][a-zA-Z0-9_:]*)\b(?!\s*\()/g)].map((match) => match[1] as string);
  return [...new Set(names.filter((name) => !promqlWords.has(name) && !/^[0-9]/.test(name)))];
}

/** The families of `Metrics` with the series names a histogram adds. */
function registeredSeries(): Set<string> {
  const metrics = new Metrics('test');
  const histograms = metrics.registry
    .getMetricsAsArray()
    .filter((metric) => (metric as unknown as { type: string }).type === 'histogram')
    .map((metric) => metric.name);
  return new Set([...metrics.families(), ...histograms.flatMap((name) => ['_bucket', '_count', '_sum'].map((s) => name + s))]);
}

/** GitHub's anchors of the headings of a Markdown file. */
function anchorsOf(markdown: string): Set<string> {
  const headings = [...markdown.matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) => match[1] as string);
  return new Set(
    headings.map((heading) =>
      heading
        .trim()
        .toLowerCase()
        .replace(/[^a-z0-9 _-]/g, '')
        .replace(/ /g, '-'),
    ),
  );
}

const runbooks = 'https://git.example.com/sesame/blob/v0.1.0/deploy/OPERATIONS.md';

beforeAll(() => {
  helmBinary();
}, 180_000);

describe('the PrometheusRule', () => {
  const rules = () =>
    named(render([ciValues('full')]), 'PrometheusRule', 'sesame').spec.groups.flatMap(
      (group: { rules: { alert: string; expr: string; annotations: Record<string, string> }[] }) => group.rules,
    );

  it('alerts on what an operator must act on', () => {
    expect(rules().map((rule: { alert: string }) => rule.alert)).toEqual([
      'SesameHttpErrors',
      'SesameHttpLatency',
      'SesameWebhookBacklog',
      'SesameWebhookOldestJob',
      'SesameMailFailures',
      'SesameSmsFailures',
      'SesameProjectionLag',
      'SesameParkedCommits',
      'SesameSignInFailures',
      'SesamePodNotReady',
    ]);
  });

  it('links every alert to a runbook that exists in deploy/OPERATIONS.md', () => {
    const anchors = anchorsOf(readFileSync(join(repoRoot, 'deploy/OPERATIONS.md'), 'utf8'));
    for (const rule of rules()) {
      const url = rule.annotations.runbook_url as string;
      expect(url.startsWith(`${runbooks}#`)).toBe(true);
      const anchor = url.slice(runbooks.length + 1);
      expect({ alert: rule.alert, anchor, exists: anchors.has(anchor) }).toEqual({ alert: rule.alert, anchor, exists: true });
      expect(rule.annotations.summary).toBeTruthy();
    }
  });

  it('reads only metrics the code registers (or, named, another exporter provides)', () => {
    const registered = registeredSeries();
    for (const rule of rules()) {
      const names = metricNamesOf(rule.expr);
      expect(names.length).toBeGreaterThan(0);
      for (const name of names)
        expect({ alert: rule.alert, name, known: registered.has(name) || name in external }).toEqual({
          alert: rule.alert,
          name,
          known: true,
        });
      expect(rule.expr).toContain('namespace="auth"');
    }
  });

  it('is off by default, and needs the runbooks URL when on', () => {
    const defaults = render([ciValues('default')]);
    expect(ofKind(defaults, 'PrometheusRule')).toEqual([]);
    expect(() => render([ciValues('default')], ['metrics.prometheusRule.enabled=true'])).toThrow(
      /metrics\.prometheusRule\.runbookBaseUrl is required/,
    );
  });
});

describe('the Grafana dashboard', () => {
  const file = () => JSON.parse(readFileSync(join(chartDir, 'files/grafana-dashboard.json'), 'utf8'));

  it('ships as a ConfigMap the Grafana sidecar picks up, only when enabled', () => {
    const configMap = named(render([ciValues('full')]), 'ConfigMap', 'sesame-grafana-dashboard');
    expect(configMap.metadata.labels).toMatchObject({ grafana_dashboard: '1' });
    expect(JSON.parse(configMap.data?.['sesame.json'] ?? '')).toEqual(file());
    expect(ofKind(render([ciValues('default')]), 'ConfigMap').map((c) => c.metadata.name)).not.toContain(
      'sesame-grafana-dashboard',
    );
  });

  it('reads only metrics the code registers, and shows every family an operator alerts on', () => {
    const registered = registeredSeries();
    const exprs: string[] = file().panels.flatMap((panel: { targets: { expr: string }[] }) =>
      panel.targets.map((target) => target.expr),
    );
    const used = new Set(exprs.flatMap(metricNamesOf));
    for (const name of used) expect({ name, known: registered.has(name) }).toEqual({ name, known: true });
    for (const family of [
      'sesame_http_requests_total',
      'sesame_http_request_duration_seconds_bucket',
      'sesame_sign_ins_total',
      'sesame_tokens_issued_total',
      'sesame_webhook_jobs_waiting',
      'sesame_webhook_oldest_job_age_seconds',
      'sesame_webhook_delivery_attempts_total',
      'sesame_mail_queue_depth',
      'sesame_mail_deliveries_total',
      'sesame_sms_deliveries_total',
      'sesame_scim_requests_total',
      'sesame_projection_lag_commits',
      'sesame_projection_parked_total',
      'sesame_rate_limit_decisions_total',
    ])
      expect(used).toContain(family);
  });
});

describe('metricNamesOf (PromQL)', () => {
  it.each([
    ['sum(rate(a_total{x="y",status=~"5.."}[5m])) / sum(rate(a_total[5m])) > 0.05', ['a_total']],
    ['histogram_quantile(0.99, sum by (le, route) (rate(h_bucket{n="a"}[5m]))) > 2.5', ['h_bucket']],
    ['max(g) > 1 and max by (pod) (k{c="false"}) == 1 or rate(c[1d] offset 10m) > 0', ['g', 'k', 'c']],
    ['up', ['up']],
  ])('%s reads %j', (expr, names) => {
    expect(metricNamesOf(expr)).toEqual(names);
  });
});
