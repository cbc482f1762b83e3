// The request path's histogram (src/observability/fastHistogram.ts) renders what prom-client's own
// Histogram renders for the same observations — the same lines, labels and order, in the text a scrape
// sends and in the registry's JSON — and its series' labels are formatted once, not at every scrape.
import { describe, expect, it } from 'vitest';
import { Histogram, Registry } from 'prom-client';
import { FastHistogram } from '../../src/observability/fastHistogram.ts';

const BUCKETS = [0.001, 0.01, 0.1, 1, 2.5];
const OBSERVED: [Record<string, string>, number][] = [
  [{ method: 'GET', route: '/codes/:code', status_class: '2xx', surface: 'rest' }, 0.0004],
  [{ method: 'GET', route: '/codes/:code', status_class: '2xx', surface: 'rest' }, 0.02],
  [{ method: 'POST', route: '/graphql', status_class: '4xx', surface: 'graphql' }, 3],
  // Values that need escaping in the text format: a backslash, a quote, a newline.
  [{ method: 'GET', route: 'a\\b"c\nd', status_class: '5xx', surface: 'service' }, 0.1],
  [{ method: 'GET', route: '/codes/:code', status_class: '2xx', surface: 'rest' }, 1],
];

function both(): { fast: Registry; lib: Registry; series: FastHistogram; h: Histogram } {
  const fast = new Registry();
  const lib = new Registry();
  const series = new FastHistogram('req_seconds', 'Requests.', ['method', 'route', 'status_class', 'surface'], BUCKETS, fast);
  const h = new Histogram({ name: 'req_seconds', help: 'Requests.', labelNames: ['method', 'route', 'status_class', 'surface'], buckets: BUCKETS, registers: [lib] });
  for (const [labels, v] of OBSERVED) {
    series.series(labels).observe(v);
    h.observe(labels, v);
  }
  return { fast, lib, series, h };
}

describe('FastHistogram', () => {
  it("renders the text prom-client's Histogram renders, scrape after scrape", async () => {
    const { fast, lib, series, h } = both();
    const expected = await lib.metrics();
    expect(expected).toContain('req_seconds_bucket{le="+Inf",method="GET",route="/codes/:code",status_class="2xx",surface="rest"} 3');
    expect(expected).toContain('route="a\\\\b\\"c\\nd"');
    expect(await fast.metrics()).toBe(expected);
    // A second scrape after more observations: the labels formatted once go with the new counts.
    series.series(OBSERVED[2]![0]).observe(0.005);
    h.observe(OBSERVED[2]![0], 0.005);
    const second = await lib.metrics();
    expect(second).not.toBe(expected);
    expect(await fast.metrics()).toBe(second);
  });

  it("gives the registry's JSON every label on every value, as prom-client's Histogram does", async () => {
    const { fast, lib } = both();
    const norm = (j: Awaited<ReturnType<Registry['getMetricsAsJSON']>>) =>
      j.flatMap((m) => m.values.map((v) => ({ ...v, labels: Object.fromEntries(Object.entries(v.labels).sort(([a], [b]) => a.localeCompare(b))), exemplar: undefined, sharedLabels: undefined })));
    expect(norm(await fast.getMetricsAsJSON())).toEqual(norm(await lib.getMetricsAsJSON()));
  });
});
