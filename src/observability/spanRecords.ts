// Finished spans as one flat array of primitives per batch: what the serving thread copies to the
// OTLP export worker (workerExporter.ts → exportWorker.ts).
//
// Why flat: the structured clone writes every object's property names, and the worker reads them
// back as new strings and objects; a span sent as nested objects (context, parent, times, status,
// scope, attributes) was ≈ 40 keys and a dozen objects each way, for a few primitives of content
// (bench/results.md › Cost of the metrics, session 19). Here only attribute keys remain.
// Spans whose ids nobody has read yet (answered warm spans, answeredSpan.ts) leave them empty: the
// worker draws them (`drawIds`), so the serving thread makes no id strings at all.
import type { Attributes, AttributeValue, HrTime, Link, SpanContext, SpanKind, SpanStatus, TraceState } from '@opentelemetry/api';
import { hrTimeDuration, type InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';

/** A batch: the distinct scopes, and each span's fields in the order `flatten` writes them. */
export interface FlatBatch {
  scopes: InstrumentationScope[];
  fields: unknown[];
}

/** A span context that can tell whether its ids were made yet (answeredSpan.ts); those not made are drawn by the worker. */
export interface LazyIds {
  idsUndrawn(): boolean;
}
const undrawn = (c: SpanContext): boolean => typeof (c as Partial<LazyIds>).idsUndrawn === 'function' && (c as unknown as LazyIds).idsUndrawn();

function pushAttributes(out: unknown[], attributes: Attributes | undefined): void {
  if (!attributes) {
    out.push(0);
    return;
  }
  const at = out.length;
  out.push(0);
  let n = 0;
  for (const key in attributes) {
    const value = attributes[key];
    // The exporters skip no key; undefined values are written as empty AnyValues by both.
    out.push(key, value);
    n++;
  }
  out[at] = n;
}

/** The spans of one export as a FlatBatch (on the serving thread). */
export function flatten(spans: readonly ReadableSpan[]): FlatBatch {
  const scopes: InstrumentationScope[] = [];
  const out: unknown[] = [];
  for (const s of spans) {
    const c = s.spanContext();
    let scope = scopes.indexOf(s.instrumentationScope);
    if (scope < 0) scope = scopes.push(s.instrumentationScope) - 1;
    const lazy = undrawn(c);
    const parent = s.parentSpanContext;
    const status = s.status;
    out.push(
      s.name,
      s.kind,
      lazy ? '' : c.traceId,
      lazy ? '' : c.spanId,
      c.traceFlags,
      c.traceState?.serialize(),
      parent?.spanId,
      parent?.isRemote,
      s.startTime[0],
      s.startTime[1],
      s.endTime[0],
      s.endTime[1],
      status.code,
      status.message,
      s.droppedAttributesCount,
      s.droppedEventsCount,
      s.droppedLinksCount,
      scope,
    );
    pushAttributes(out, s.attributes);
    out.push(s.events.length);
    for (const e of s.events) {
      out.push(e.name, e.time[0], e.time[1], e.droppedAttributesCount ?? 0);
      pushAttributes(out, e.attributes);
    }
    out.push(s.links.length);
    for (const l of s.links) {
      out.push(l.context.traceId, l.context.spanId, l.context.traceFlags, l.context.isRemote, l.context.traceState?.serialize(), l.droppedAttributesCount ?? 0);
      pushAttributes(out, l.attributes);
    }
  }
  return { scopes, fields: out };
}

const traceState = (s: string | undefined): TraceState | undefined => (s === undefined ? undefined : ({ serialize: () => s } as TraceState));

/** Reads a FlatBatch back as the SDK's ReadableSpans (in the worker), with `resource` and one object per scope. */
export function readSpans(batch: FlatBatch, resource: Resource, drawIds: () => [string, string], scopeOf: (s: InstrumentationScope) => InstrumentationScope = (s) => s): ReadableSpan[] {
  const f = batch.fields;
  const scopes = batch.scopes.map(scopeOf);
  const spans: ReadableSpan[] = [];
  let i = 0;
  const attributes = (): Attributes => {
    const n = f[i++] as number;
    const a: Attributes = {};
    for (let k = 0; k < n; k++, i += 2) a[f[i] as string] = f[i + 1] as AttributeValue;
    return a;
  };
  while (i < f.length) {
    const name = f[i] as string;
    const kind = f[i + 1] as SpanKind;
    let traceId = f[i + 2] as string;
    let spanId = f[i + 3] as string;
    if (traceId === '') [traceId, spanId] = drawIds();
    const context: SpanContext = { traceId, spanId, traceFlags: f[i + 4] as number, traceState: traceState(f[i + 5] as string | undefined) };
    const parentId = f[i + 6] as string | undefined;
    const parentSpanContext: SpanContext | undefined = parentId === undefined ? undefined : { traceId, spanId: parentId, traceFlags: context.traceFlags, isRemote: f[i + 7] as boolean | undefined };
    const startTime: HrTime = [f[i + 8] as number, f[i + 9] as number];
    const endTime: HrTime = [f[i + 10] as number, f[i + 11] as number];
    const message = f[i + 13] as string | undefined;
    const status: SpanStatus = message === undefined ? { code: f[i + 12] as number } : { code: f[i + 12] as number, message };
    const droppedAttributesCount = f[i + 14] as number;
    const droppedEventsCount = f[i + 15] as number;
    const droppedLinksCount = f[i + 16] as number;
    const scope = scopes[f[i + 17] as number]!;
    i += 18;
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
