// The server span of a sampled warm answer, built once the answer is on the socket and handed
// straight to the span processor (src/observability/tracingSdk.ts, tracedListener).
//
// Why: at a 10 % ratio a sampled warm answer ran the SDK's whole span machinery — tracer, sampler,
// SpanImpl, attribute checks, the processor's start hook — cold, between nine unsampled requests,
// at 3 × its cost at 100 % (bench/results.md › Cost of traces, session 13). Such a span is known
// whole when the answer has been sent: its start and end, route, status; no parent (a request with
// a caller's context takes the SDK's path), no children, events or links. One fixed-shape object
// with the provider's resource and scope is what the batch processor and the OTLP exporters read.
// The request keeps only what it saw (its facts and two clock reads); name, attributes and ids are
// made when the exporter first reads them, for a whole batch in one loop where that code is hot,
// not once per sampled request where it runs cold (session 14, instructions per request).
import { SpanKind, SpanStatusCode, TraceFlags, type Attributes, type HrTime, type SpanContext, type SpanStatus } from '@opentelemetry/api';
import { hrTimeDuration, type InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import { RandomIdGenerator, type ReadableSpan, type SpanProcessor, type TimedEvent } from '@opentelemetry/sdk-trace-base';
import type { Link } from '@opentelemetry/api';
import type { LazyIds } from './spanRecords.ts';

/** A span's name, attributes and error status, made from what its request showed when it was answered. */
export interface Described {
  name: string;
  attributes: Attributes;
  error: boolean;
}
export type Describe<R> = (request: R) => Described;

/** Records a finished root server span (the listener has decided it is sampled): `describe(request)` is called once, when the exporter reads it. */
export type RecordAnswered = <R>(request: R, describe: Describe<R>, start: HrTime, end: HrTime) => void;

const OK: SpanStatus = { code: SpanStatusCode.UNSET };
const ERROR: SpanStatus = { code: SpanStatusCode.ERROR };
// Shared and frozen: exporters only read a finished span's links and events.
const NO_LINKS = Object.freeze([]) as unknown as Link[];
const NO_EVENTS = Object.freeze([]) as unknown as TimedEvent[];

/**
 * The span's ids, drawn when first read; the batch processor reads only the flags, and the export
 * leaves ids nobody read to its worker to draw (spanRecords.ts), so usually none are made here.
 */
class DrawnIds implements SpanContext, LazyIds {
  readonly traceFlags = TraceFlags.SAMPLED;
  private trace?: string;
  private span?: string;
  constructor(private readonly ids: RandomIdGenerator) {}
  get traceId(): string {
    return (this.trace ??= this.ids.generateTraceId());
  }
  get spanId(): string {
    return (this.span ??= this.ids.generateSpanId());
  }
  idsUndrawn(): boolean {
    return this.trace === undefined && this.span === undefined;
  }
}

class AnsweredSpan<R> implements ReadableSpan {
  readonly kind = SpanKind.SERVER;
  readonly parentSpanContext = undefined;
  readonly links = NO_LINKS;
  readonly events = NO_EVENTS;
  readonly ended = true;
  readonly droppedAttributesCount = 0;
  readonly droppedEventsCount = 0;
  readonly droppedLinksCount = 0;
  private described?: Described;

  constructor(
    private readonly context: DrawnIds,
    private readonly request: R,
    private readonly describe: Describe<R>,
    readonly startTime: HrTime,
    readonly endTime: HrTime,
    readonly resource: Resource,
    readonly instrumentationScope: InstrumentationScope,
  ) {}

  private get description(): Described {
    return (this.described ??= this.describe(this.request));
  }
  get name(): string {
    return this.description.name;
  }
  get attributes(): Attributes {
    return this.description.attributes;
  }
  get status(): SpanStatus {
    return this.description.error ? ERROR : OK;
  }
  get duration(): HrTime {
    return hrTimeDuration(this.startTime, this.endTime);
  }

  spanContext(): SpanContext {
    return this.context;
  }
}

/** Answered spans go to `processor` (the provider's batch processor) with the provider's resource and scope. */
export function answeredSpans(processor: SpanProcessor, resource: Resource, scope: InstrumentationScope): RecordAnswered {
  // The SDK's own generator: the same ids (random, never all zero) as its spans.
  const ids = new RandomIdGenerator();
  return (request, describe, start, end) => {
    processor.onEnd(new AnsweredSpan(new DrawnIds(ids), request, describe, start, end, resource, scope));
  };
}
