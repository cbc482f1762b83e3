// What the service's parts call to be traced, as optional hooks. A leaf module (it imports
// nothing), so the lowest layers (database, rate limiter, coding engine) and the error
// answers are traced without loading OpenTelemetry: every hook is undefined until tracing is
// on (src/observability/tracingSdk.ts sets them), so while it is off each call site costs one
// property read. One set per process: a process serves one app.

/** A span the caller ends: the coding engine's task, which a worker thread runs. */
export interface TaskSpan {
  /** The worker started the task (its queue wait ends). */
  started(): void;
  end(outcome: 'ok' | 'timeout' | 'error'): void;
}

export interface TraceHooks {
  /** Around one SQL statement; `sql` is read for its first keyword only (never recorded). */
  db?: <T>(sql: string, run: () => Promise<T>) => Promise<T>;
  /** Around one Redis command (its name, e.g. EVALSHA; never its arguments). */
  redis?: <T>(command: string, run: () => Promise<T>) => Promise<T>;
  /** A coding-engine task (`op`: classify, identify, label…) started now, under the current span. */
  engineTask?: (op: string) => TaskSpan | undefined;
  /**
   * Around one call to another service (the LLM provider): a client span, whose W3C trace
   * context (`traceparent`, `tracestate`) `run` sends with the call. Attributes: names and
   * addresses only, never what is sent.
   */
  outgoing?: <T>(name: string, attributes: Record<string, string | number>, run: (headers: Record<string, string>) => Promise<T>) => Promise<T>;
  /** The trace id of the request being answered (error answers, log lines). */
  traceId?: () => string | undefined;
}

export const traceHooks: TraceHooks = {};

/** `{ traceId }` for an error answer, beside its requestId; nothing while tracing is off. */
export function traceIdField(): { traceId: string } | undefined {
  const id = traceHooks.traceId?.();
  return id === undefined ? undefined : { traceId: id };
}
