// A histogram for the request path, registered with prom-client's registry as a custom metric:
// a series is looked up once and kept (an object with a bucket array), so an observation is a
// bucket search and three additions. prom-client's own Histogram validates and hashes the
// label values on every observe(), even through labels(): three of those per request cost a
// warm answer ~15 % of its throughput (bench/metrics.ts).
import type { Registry } from 'prom-client';

export class HistogramSeries {
  /** Observations per bucket (not cumulative); the last slot is +Inf. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  /**
   * `bounds` and `counts` are Float64Arrays for every histogram, so that the element loads of
   * observe() see one kind of array: plain arrays of integer (sizes) and fractional (durations)
   * bounds made them polymorphic, a generic keyed load per bucket compared (session 15).
   */
  constructor(
    readonly labels: Record<string, string>,
    private readonly bounds: Float64Array,
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    const b = this.bounds;
    let i = 0;
    while (i < b.length && value > b[i]!) i++;
    this.counts[i]!++;
    this.sum += value;
    this.count++;
  }
}

interface MetricValue {
  labels: Record<string, string | number>;
  /** Labels prom-client's renderer formats once per object and keeps (a WeakMap in its registry), then reuses at every scrape. */
  sharedLabels?: Record<string, string>;
  value: number;
  metricName: string;
}

/** The labels of a series' _sum and _count lines beside its own (one object: the renderer keeps nothing per value). */
const NO_LABELS: Record<string, string> = Object.freeze({}) as Record<string, string>;

export class FastHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly all = new Map<string, HistogramSeries>();
  private readonly bounds: Float64Array;
  /** Each bucket's `le` label, made once: the same objects at every scrape. */
  private readonly le: readonly { le: number | string }[];
  private readonly bucketName: string;
  private readonly sumName: string;
  private readonly countName: string;

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
    bounds: readonly number[],
    registry: Registry,
  ) {
    this.bounds = Float64Array.from(bounds);
    this.le = [...bounds.map((le) => ({ le })), { le: '+Inf' }];
    this.bucketName = `${name}_bucket`;
    this.sumName = `${name}_sum`;
    this.countName = `${name}_count`;
    registry.registerMetric(this as never);
  }

  /** The series of these label values, created on first use; keep it and observe on it. */
  series(labels: Record<string, string>): HistogramSeries {
    const key = this.labelNames.map((n) => labels[n] ?? '').join('\u0000');
    let s = this.all.get(key);
    if (!s) this.all.set(key, (s = new HistogramSeries(labels, this.bounds)));
    return s;
  }

  /**
   * For the text a scrape renders (prom-client's registry calls this in place of get(), as for its own
   * histograms): each series' labels passed as `sharedLabels`, the same object at every scrape, so the
   * registry formats and escapes them once per series and process rather than on every bucket line of
   * every scrape; a bucket line formats only its `le` (bench/results.md › Cost of the metrics, session 20).
   */
  getForPromString(): { name: string; help: string; type: string; aggregator: string; values: MetricValue[] } {
    const values: MetricValue[] = [];
    const n = this.bounds.length;
    for (const s of this.all.values()) {
      let cumulative = 0;
      for (let i = 0; i <= n; i++) {
        cumulative += s.counts[i]!;
        values.push({ labels: this.le[i]!, sharedLabels: s.labels, value: cumulative, metricName: this.bucketName });
      }
      values.push({ labels: NO_LABELS, sharedLabels: s.labels, value: s.sum, metricName: this.sumName });
      values.push({ labels: NO_LABELS, sharedLabels: s.labels, value: s.count, metricName: this.countName });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /** prom-client's metric interface (getMetricsAsJSON, aggregation): the values in its histogram layout (cumulative buckets, sum, count), every label on each. */
  get(): { name: string; help: string; type: string; aggregator: string; values: MetricValue[] } {
    const values: MetricValue[] = [];
    for (const s of this.all.values()) {
      let cumulative = 0;
      for (let i = 0; i <= this.bounds.length; i++) {
        cumulative += s.counts[i]!;
        values.push({ labels: { ...s.labels, le: i < this.bounds.length ? this.bounds[i]! : '+Inf' }, value: cumulative, metricName: this.bucketName });
      }
      values.push({ labels: s.labels, value: s.sum, metricName: this.sumName });
      values.push({ labels: s.labels, value: s.count, metricName: this.countName });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.all.clear();
  }
}
