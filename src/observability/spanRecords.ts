// Finished spans as one flat array of primitives per batch: what the serving thread copies to the
// OTLP export worker (workerExporter.ts → exportWorker.ts).
//
// Why flat: the structured clone writes every object's property names, and the worker reads them
// back as new strings and objects; a span sent as nested objects (context, parent, times, status,
// scope, attributes) was ≈ 40 keys and a dozen objects each way, for a few primitives of content
// (bench/results.md › Cost of the metrics, session 19). Names, attribute keys and string values
// go once per batch in a table (`strings`) and by index in `values`: the clone writes a string
// each time it meets it (it shares objects, not strings), and the spans of a server repeat a
// handful (seven keys, a route, a method, an address): written 512 times a batch before, read back
// as as many new strings that each attribute key then had to be looked up as (session 24).
// Spans whose ids nobody has read yet (answered warm spans, answeredSpan.ts) leave them empty: the
// worker draws them (`drawIds`), so the serving thread makes no id strings at all.
import { randomFillSync } from 'node:crypto';
import type { Attributes, AttributeValue, HrTime, Link, SpanContext, SpanKind, SpanStatus, TraceState } from '@opentelemetry/api';
import { hrTimeDuration, type InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';

/**
 * A batch: the distinct scopes; each span's fixed numeric fields (NUMBERS of them, in the order
 * `flatten` writes them) in one typed array, copied as one block; its strings and attributes, in order,
 * in `values`, where a span's name is an index into `strings`, and each attribute is its key's index × 2
 * (+ 1 when its value is a string, then given as an index into `strings` too) followed by its value.
 */
export interface FlatBatch {
  scopes: InstrumentationScope[];
  numbers: Float64Array;
  values: unknown[];
  /** The batch's distinct names, attribute keys and string attribute values. */
  strings: string[];
}

/** A batch's string table while it is written: each distinct string once. */
class StringTable {
  readonly strings: string[] = [];
  private readonly index = new Map<string, number>();
  /** By key index: the index of that key's last string value (a key's value mostly repeats span after span). */
  private readonly lastValue: number[] = [];
  of(s: string): number {
    let i = this.index.get(s);
    if (i === undefined) {
      i = this.strings.length;
      this.strings.push(s);
      this.index.set(s, i);
    }
    return i;
  }
  /** A string value of key `k`: compared with that key's last value first, without hashing a string made per request. */
  valueOf(k: number, s: string): number {
    const last = this.lastValue[k];
    if (last !== undefined && this.strings[last] === s) return last;
    const i = this.of(s);
    this.lastValue[k] = i;
    return i;
  }
}
/** kind, traceFlags, parent (0 none, 1 local, 2 remote), start s and ns, end s and ns, status code, dropped attributes, events and links, scope. */
export const NUMBERS = 12;

/** A span context that can tell whether its ids were made yet (answeredSpan.ts); those not made are drawn by the worker. */
export interface LazyIds {
  idsUndrawn(): boolean;
}
const undrawn = (c: SpanContext): boolean => typeof (c as Partial<LazyIds>).idsUndrawn === 'function' && (c as unknown as LazyIds).idsUndrawn();

function pushAttributes(out: unknown[], table: StringTable, attributes: Attributes | undefined): void {
  const at = out.length;
  out[at] = 0;
  if (!attributes) return;
  let n = 0;
  for (const key in attributes) {
    // Both exporters write every key (an undefined value as an empty AnyValue).
    const value = attributes[key];
    const k = table.of(key);
    if (typeof value === 'string') {
      out[out.length] = k * 2 + 1;
      out[out.length] = table.valueOf(k, value);
    } else {
      out[out.length] = k * 2;
      out[out.length] = value;
    }
    n++;
  }
  out[at] = n;
}

/**
 * The spans of one export as a FlatBatch (on the serving thread). Written element by element:
 * `push` with many arguments takes V8's generic path; times in a Float64Array, not boxed one by one.
 */
export function flatten(spans: readonly ReadableSpan[]): FlatBatch {
  const scopes: InstrumentationScope[] = [];
  const numbers = new Float64Array(spans.length * NUMBERS);
  const out: unknown[] = [];
  const table = new StringTable();
  let n = 0;
  for (const s of spans) {
    const c = s.spanContext();
    let scope = scopes.indexOf(s.instrumentationScope);
    if (scope < 0) scope = scopes.push(s.instrumentationScope) - 1;
    const lazy = undrawn(c);
    const parent = s.parentSpanContext;
    const status = s.status;
    numbers[n++] = s.kind;
    numbers[n++] = c.traceFlags;
    numbers[n++] = parent === undefined ? 0 : parent.isRemote ? 2 : 1;
    numbers[n++] = s.startTime[0];
    numbers[n++] = s.startTime[1];
    numbers[n++] = s.endTime[0];
    numbers[n++] = s.endTime[1];
    numbers[n++] = status.code;
    numbers[n++] = s.droppedAttributesCount;
    numbers[n++] = s.droppedEventsCount;
    numbers[n++] = s.droppedLinksCount;
    numbers[n++] = scope;
    let i = out.length;
    out[i++] = table.of(s.name);
    out[i++] = lazy ? '' : c.traceId;
    out[i++] = lazy ? '' : c.spanId;
    out[i++] = c.traceState?.serialize();
    out[i++] = parent?.spanId;
    out[i++] = status.message;
    pushAttributes(out, table, s.attributes);
    out[out.length] = s.events.length;
    for (const e of s.events) {
      i = out.length;
      out[i++] = e.name;
      out[i++] = e.time[0];
      out[i++] = e.time[1];
      out[i++] = e.droppedAttributesCount ?? 0;
      pushAttributes(out, table, e.attributes);
    }
    out[out.length] = s.links.length;
    for (const l of s.links) {
      i = out.length;
      out[i++] = l.context.traceId;
      out[i++] = l.context.spanId;
      out[i++] = l.context.traceFlags;
      out[i++] = l.context.isRemote;
      out[i++] = l.context.traceState?.serialize();
      out[i++] = l.droppedAttributesCount ?? 0;
      pushAttributes(out, table, l.attributes);
    }
  }
  return { scopes, numbers, values: out, strings: table.strings };
}

// Ids of spans the serving thread left undrawn (answered warm spans), drawn in the worker: random,
// never all zero, as the SDK's; from a pool filled for a batch's worth at a time.
const ID_BYTES = 24;
const pool = Buffer.alloc(ID_BYTES * 512);
let used = pool.length;
const zero = (from: number, to: number) => {
  for (let i = from; i < to; i++) if (pool[i] !== 0) return false;
  return true;
};
export function drawIds(): [string, string] {
  for (;;) {
    if (used === pool.length) {
      randomFillSync(pool);
      used = 0;
    }
    const at = used;
    used += ID_BYTES;
    if (!zero(at, at + 16) && !zero(at + 16, at + ID_BYTES)) return [pool.toString('hex', at, at + 16), pool.toString('hex', at + 16, at + ID_BYTES)];
  }
}

const traceState = (s: string | undefined): TraceState | undefined => (s === undefined ? undefined : ({ serialize: () => s } as TraceState));

/** Reads a FlatBatch back as the SDK's ReadableSpans (in the worker), with `resource` and one object per scope. */
export function readSpans(batch: FlatBatch, resource: Resource, drawIds: () => [string, string], scopeOf: (s: InstrumentationScope) => InstrumentationScope = (s) => s): ReadableSpan[] {
  const f = batch.values;
  const strings = batch.strings;
  const num = batch.numbers;
  const scopes = batch.scopes.map(scopeOf);
  const spans: ReadableSpan[] = [];
  let i = 0;
  const attributes = (): Attributes => {
    const n = f[i++] as number;
    const a: Attributes = {};
    for (let k = 0; k < n; k++, i += 2) {
      const key = f[i] as number;
      a[strings[key >> 1]!] = (key & 1 ? strings[f[i + 1] as number] : f[i + 1]) as AttributeValue;
    }
    return a;
  };
  for (let n = 0; n < num.length; n += NUMBERS) {
    const kind = num[n] as SpanKind;
    const name = strings[f[i] as number]!;
    let traceId = f[i + 1] as string;
    let spanId = f[i + 2] as string;
    if (traceId === '') [traceId, spanId] = drawIds();
    const context: SpanContext = { traceId, spanId, traceFlags: num[n + 1]!, traceState: traceState(f[i + 3] as string | undefined) };
    const parentId = f[i + 4] as string | undefined;
    const parentSpanContext: SpanContext | undefined = num[n + 2] === 0 ? undefined : { traceId, spanId: parentId ?? '', traceFlags: context.traceFlags, isRemote: num[n + 2] === 2 };
    const startTime: HrTime = [num[n + 3]!, num[n + 4]!];
    const endTime: HrTime = [num[n + 5]!, num[n + 6]!];
    const message = f[i + 5] as string | undefined;
    const status: SpanStatus = message === undefined ? { code: num[n + 7]! } : { code: num[n + 7]!, message };
    const droppedAttributesCount = num[n + 8]!;
    const droppedEventsCount = num[n + 9]!;
    const droppedLinksCount = num[n + 10]!;
    const scope = scopes[num[n + 11]!]!;
    i += 6;
    const attrs = attributes();
    const events: TimedEvent[] = [];
    for (let n = f[i++] as number; n > 0; n--) {
      const e = { name: f[i] as string, time: [f[i + 1], f[i + 2]] as HrTime, droppedAttributesCount: f[i + 3] as number };
      i += 4;
      events.push({ ...e, attributes: attributes() });
    }
    const links: Link[] = [];
    for (let n = f[i++] as number; n > 0; n--) {
      const lc: SpanContext = { traceId: f[i] as string, spanId: f[i + 1] as string, traceFlags: f[i + 2] as number, isRemote: f[i + 3] as boolean | undefined, traceState: traceState(f[i + 4] as string | undefined) };
      const dropped = f[i + 5] as number;
      i += 6;
      links.push({ context: lc, attributes: attributes(), droppedAttributesCount: dropped });
    }
    spans.push({
      name,
      kind,
      spanContext: () => context,
      parentSpanContext,
      startTime,
      endTime,
      status,
      attributes: attrs,
      links,
      events,
      duration: hrTimeDuration(startTime, endTime),
      ended: true,
      resource,
      instrumentationScope: scope,
      droppedAttributesCount,
      droppedEventsCount,
      droppedLinksCount,
    });
  }
  return spans;
}
