// ops/: the alerting rules pass `promtool check rules` and their unit tests
// (`promtool test rules`), and the Grafana dashboard's queries are valid PromQL over series
// the service exports. Skipped where promtool is absent, except in CI (CI set).
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../src/paths.ts';
import { Metrics } from '../../src/observability/metrics.ts';
import { graphqlMetricsPlugin } from '../../src/graphql/metricsPlugin.ts';
import { hasPromtool } from '../helpers/prometheus.ts';

const ops = path.join(projectRoot, 'ops');
const inCi = Boolean(process.env.CI);
if (!hasPromtool && !inCi) console.warn('test/observability/ops.test.ts: promtool is not installed (apt-get install prometheus); the promtool checks are skipped');

function promtool(args: string[], cwd = ops): { code: number | null; out: string } {
  const r = spawnSync('promtool', args, { cwd, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

interface Panel {
  title: string;
  targets: { expr: string }[];
}
const dashboard = JSON.parse(readFileSync(path.join(ops, 'grafana-dashboard.json'), 'utf8')) as { uid: string; panels: Panel[] };
const alerts = readFileSync(path.join(ops, 'alerts.yml'), 'utf8');
/** Grafana's variables, as a query would be sent. */
const substituted = (expr: string) => expr.replaceAll('$__rate_interval', '5m').replaceAll('$job', '.*').replaceAll('$instance', '.*');

/** Every metric name the service exports (a registry built as the server builds it). */
function exported(): Set<string> {
  const metrics = new Metrics({ store: 'embedded', languages: () => [] });
  try {
    graphqlMetricsPlugin(metrics.registry);
    const names = new Set<string>(['up']);
    for (const m of metrics.registry.getMetricsAsArray()) {
      const n = m.name;
      names.add(n);
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${n}${suffix}`);
    }
    return names;
  } finally {
    metrics.close();
  }
}

/** Metric names in a PromQL expression: identifiers followed by { or ( -less use, minus functions and keywords. */
function metricNames(expr: string): string[] {
  const withoutStrings = expr.replace(/"[^"]*"/g, '""').replace(/\[[^\]]*\]/g, '');
  const words = withoutStrings.match(/[a-zA-Z_:][a-zA-Z0-9_:]*/g) ?? [];
  const keywords = new Set(['sum', 'by', 'rate', 'increase', 'histogram_quantile', 'topk', 'max', 'min', 'avg', 'without', 'and', 'or', 'unless', 'on', 'ignoring', 'group_left', 'group_right']);
  // Label names sit inside {…} or (…) after by: keep only words that are followed by { or stand alone as a selector.
  return words.filter((w, i) => !keywords.has(w) && /_(total|seconds|bytes|count|sum|bucket|info|length|running|requests|connections|flight)$|^up$/.test(w) && words[i - 1] !== 'by');
}

describe('ops/ files', () => {
  it.skipIf(!hasPromtool && !inCi)('alerting rules: promtool check rules and their unit tests', () => {
    expect(hasPromtool, 'CI is set but promtool is missing: .ci/run installs the Debian prometheus package').toBe(true);
    const check = promtool(['check', 'rules', 'alerts.yml']);
    expect(check.code, check.out).toBe(0);
    expect(check.out).toContain('SUCCESS: 6 rules found');
    const unit = promtool(['test', 'rules', 'alerts.test.yml']);
    expect(unit.code, unit.out).toBe(0);
    for (const name of ['TerminologyHighErrorRatio', 'TerminologyLatencyP99High', 'TerminologyRateLimitStoreDegraded', 'TerminologyEngineTimeouts', 'TerminologyDatabaseUnavailable']) {
      expect(alerts).toContain(`alert: ${name}`);
    }
  });

  it.skipIf(!hasPromtool && !inCi)("dashboard queries are valid PromQL (checked by promtool as recording rules)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'te-dashboard-'));
    try {
      const rules = dashboard.panels.flatMap((p, i) => p.targets.map((t, j) => `      - record: dashboard:panel_${i}_${j}\n        expr: ${JSON.stringify(substituted(t.expr))}`));
      writeFileSync(path.join(dir, 'dashboard.rules.yml'), `groups:\n  - name: dashboard\n    rules:\n${rules.join('\n')}\n`);
      const check = promtool(['check', 'rules', 'dashboard.rules.yml'], dir);
      expect(check.code, check.out).toBe(0);
      expect(check.out).toContain(`SUCCESS: ${rules.length} rules found`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('dashboard and alerts use only series the service exports', () => {
    expect(dashboard.uid).toBe('terminology-explorer');
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(15);
    const names = exported();
    const used = new Set([...dashboard.panels.flatMap((p) => p.targets.flatMap((t) => metricNames(t.expr))), ...metricNames(alerts.split('\n').filter((l) => !l.trim().startsWith('#') && !l.includes('summary:')).join('\n'))]);
    expect(used.size).toBeGreaterThan(15);
    expect([...used].filter((n) => !names.has(n))).toEqual([]);
  });
});
