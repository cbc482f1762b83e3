// The server span of a sampled warm answer, built whole once the answer is on the socket and
// handed straight to the span processor (src/observability/tracingSdk.ts, tracedListener).
//
// Why: at a 10 % ratio a sampled warm answer ran the SDK's whole span machinery — tracer, sampler,
// SpanImpl, attribute checks, the processor's start hook — cold, between nine unsampled requests,
// at 3 × its cost at 100 % (bench/results.md › Cost of traces, session 13). Such a span is known
// whole when the answer has been sent: its start and end, route, status; no parent (a request with
// a caller's context takes the SDK's path), no children, events or links. One fixed-shape object
// with the provider's resource and scope is what the batch processor and the OTLP exporters read.
import { SpanKind, SpanStatusCode, TraceFlags, type Attributes, type HrTime, type SpanContext, type SpanStatus } from '@opentelemetry/api';
import { hrTimeDuration, type InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import { RandomIdGenerator, type ReadableSpan, type SpanProcessor, type TimedEvent } from '@opentelemetry/sdk-trace-base';
import type { Link } from '@opentelemetry/api';

/** Records a finished root server span (the listener has decided it is sampled). */
export type RecordAnswered = (name: string, attributes: Attributes, start: HrTime, end: HrTime, error: boolean) => void;

const OK: SpanStatus = { code: SpanStatusCode.UNSET };
const ERROR: SpanStatus = { code: SpanStatusCode.ERROR };
// Shared and frozen: exporters only read a finished span's links and events.
const NO_LINKS = Object.freeze([]) as unknown as Link[];
const NO_EVENTS = Object.freeze([]) as unknown as TimedEvent[];

class AnsweredSpan implements ReadableSpan {
  readonly kind = SpanKind.SERVER;
  readonly parentSpanContext = undefined;
  readonly links = NO_LINKS;
  readonly events = NO_EVENTS;
  readonly ended = true;
  readonly droppedAttributesCount = 0;
  readonly droppedEventsCount = 0;
  readonly droppedLinksCount = 0;
  readonly duration: HrTime;

  constructor(
    private readonly context: SpanContext,
    readonly name: string,
    readonly attributes: Attributes,
    readonly startTime: HrTime,
    readonly endTime: HrTime,
    readonly status: SpanStatus,
    readonly resource: Resource,
    readonly instrumentationScope: InstrumentationScope,
  ) {
    this.duration = hrTimeDuration(startTime, endTime);
  }

  spanContext(): SpanContext {
    return this.context;
  }
}

/** Answered spans go to `processor` (the provider's batch processor) with the provider's resource and scope. */
export function answeredSpans(processor: SpanProcessor, resource: Resource, scope: InstrumentationScope): RecordAnswered {
  // The SDK's own generator: the same ids (random, never all zero) as its spans.
  const ids = new RandomIdGenerator();
  return (name, attributes, start, end, error) => {
    const context: SpanContext = { traceId: ids.generateTraceId(), spanId: ids.generateSpanId(), traceFlags: TraceFlags.SAMPLED };
    processor.onEnd(new AnsweredSpan(context, name, attributes, start, end, error ? ERROR : OK, resource, scope));
  };
}
