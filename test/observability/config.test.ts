// The metrics settings through the config loader (src/config.ts) and what they switch on:
// off unless METRICS_PORT or METRICS_TOKEN is set (src/observability/setup.ts).
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { createObservability } from '../../src/observability/setup.ts';
import { bearerMatches } from '../../src/observability/httpMetrics.ts';
import { timings } from '../../src/observability/signals.ts';
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { hrTimeToNanoseconds, W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { AddressInfo } from 'node:net';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { rootSampleRate, samplerOf, tracedListener } from '../../src/observability/tracingSdk.ts';
import { RouteClassifier } from '../../src/observability/routes.ts';
import { ScopedContextManager } from '../../src/observability/scopedContextManager.ts';
import { answeredSpans } from '../../src/observability/answeredSpan.ts';

const refused = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('accepted');
};

describe('metrics configuration', () => {
  it('is off by default: no registry, no timing hooks', () => {
    const c = loadConfig({});
    expect(c.metrics).toEqual({ port: undefined, token: undefined });
    expect(createObservability(c, () => [])).toBeUndefined();
    expect(timings.dbQuery).toBeUndefined();
  });

  it('is on with METRICS_PORT or METRICS_TOKEN, and its hooks go with close()', async () => {
    for (const env of [{ METRICS_PORT: '9464' }, { METRICS_TOKEN: 'a'.repeat(16) }]) {
      const o = createObservability(loadConfig(env), () => ['English'])!;
      expect(o).toBeDefined();
      expect(timings.dbQuery).toBeTypeOf('function');
      await o.close();
      expect(timings.dbQuery).toBeUndefined();
    }
  });

  it('refuses a short or spaced token and METRICS_PORT equal to PORT', () => {
    expect(refused({ METRICS_TOKEN: 'short' })).toBe('Invalid configuration:\n  METRICS_TOKEN: must be at least 16 characters');
    expect(refused({ METRICS_TOKEN: 'with a space in it!!' })).toBe('Invalid configuration:\n  METRICS_TOKEN: must be printable ASCII without spaces');
    expect(refused({ METRICS_PORT: '4000' })).toBe('Invalid configuration:\n  METRICS_PORT: must differ from PORT (use METRICS_TOKEN for /metrics on the main port)');
    expect(refused({ METRICS_PORT: '70000' })).toMatch(/METRICS_PORT: Too big/);
  });

  it('compares the bearer token exactly', () => {
    const token = 'abcdefghijklmnop';
    expect(bearerMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`Bearer ${token}x`, token)).toBe(false);
    expect(bearerMatches(`Bearer ${token.slice(1)}`, token)).toBe(false);
    expect(bearerMatches(token, token)).toBe(false);
    expect(bearerMatches(undefined, token)).toBe(false);
  });
});

// Root sampling is decided by the listener before any span exists (src/observability/tracingSdk.ts):
// the configured ratio must apply once — not once by the listener and again by the SDK — and a
// caller's context still goes to the configured sampler. Real SDK, real HTTP, spans kept in memory.
describe('trace sampling of requests', () => {
  async function sampled(sampler: string, ratio: number, requests: number, headers: (i: number) => Record<string, string> = () => ({})) {
    const config = { sampler, samplerRatio: ratio } as Parameters<typeof samplerOf>[0];
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ sampler: samplerOf(config), spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const listener = tracedListener((_req, res) => res.end('ok'), provider.getTracer('t'), new RouteClassifier([]), rootSampleRate(config));
    const server = createServer(listener);
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
    try {
      for (let i = 0; i < requests; i++) await (await fetch(url, { headers: headers(i) })).text();
      await provider.forceFlush();
      return exporter.getFinishedSpans();
    } finally {
      await new Promise((r) => server.close(r));
      await provider.shutdown();
      propagation.disable();
    }
  }
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join('');

  it('a ratio applies once to requests that start a trace (400 requests at 0.5: 200 ± 45)', async () => {
    for (const sampler of ['parentbased_traceidratio', 'traceidratio']) {
      const spans = await sampled(sampler, 0.5, 400);
      // Applied twice it would be ≈ 100; the bounds are more than 4.5 standard deviations wide.
      expect(spans.length, sampler).toBeGreaterThan(155);
      expect(spans.length, sampler).toBeLessThan(245);
    }
  }, 60_000);

  it('always, never, and a caller\'s flag under the parent-based samplers', async () => {
    expect(await sampled('parentbased_always_on', 1, 20)).toHaveLength(20);
    expect(await sampled('always_off', 1, 20)).toHaveLength(0);
    expect(await sampled('parentbased_always_off', 1, 20)).toHaveLength(0);
    // A caller's sampled flag decides under parentbased_* even at a ratio of 0 for roots.
    const flagged = await sampled('parentbased_traceidratio', 0, 20, (i) => ({ traceparent: `00-${hex(32)}-${hex(16)}-0${i % 2}` }));
    expect(flagged).toHaveLength(10);
    // A malformed traceparent is no caller: the root ratio (0 here) still applies.
    expect(await sampled('parentbased_traceidratio', 0, 10, () => ({ traceparent: '00-zz-not-a-context-01' }))).toHaveLength(0);
  }, 60_000);
});

// Contexts cost every request while any is entered (Node 20's async hooks), so the listener enters
// one only for traced requests that do work, and only until their response closes
// (src/observability/scopedContextManager.ts); a warm answer replayed at once gets its span and no context.
describe('trace contexts of requests', () => {
  it('a request answered at once gets its span and no context; one that works runs under its span until its response closes', async () => {
    const manager = new ScopedContextManager();
    context.setGlobalContextManager(manager);
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    const exporter = new InMemorySpanExporter();
    const processor = new SimpleSpanProcessor(exporter);
    const resource = resourceFromAttributes({ 'service.name': 'answered-test' });
    const provider = new BasicTracerProvider({ resource, sampler: samplerOf({ sampler: 'parentbased_always_on', samplerRatio: 1 }), spanProcessors: [processor] });
    const tracer = provider.getTracer('t');
    const scopesSeen: number[] = [];
    const answerNow = (req: IncomingMessage, res: ServerResponse) => {
      if (req.url !== '/warm') return false;
      scopesSeen.push(manager.openScopes);
      res.end('replayed');
      return true;
    };
    const listener: RequestListener = (_req, res) => {
      // Work that continues after the listener returns: its child span must find the request's span.
      setTimeout(() => {
        scopesSeen.push(manager.openScopes);
        tracer.startSpan('child', {}, context.active()).end();
        res.end('worked');
      }, 5);
    };
    // As the server runs it: a warm answer handed to the socket gets its span built whole (answeredSpan.ts).
    const answered = answeredSpans(processor, resource, { name: 't' });
    const server = createServer(tracedListener(listener, tracer, new RouteClassifier([{ path: '/warm' }, { path: '/work' }]), 1, answerNow, manager, answered));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(await (await fetch(`${base}/warm`)).text()).toBe('replayed');
      expect(await (await fetch(`${base}/work`)).text()).toBe('worked');
      await new Promise((r) => setTimeout(r, 50));
      await provider.forceFlush();
      const spans = exporter.getFinishedSpans();
      const warm = spans.find((s) => s.name === 'GET /warm');
      const work = spans.find((s) => s.name === 'GET /work');
      const child = spans.find((s) => s.name === 'child');
      expect(warm, spans.map((s) => s.name).join(', ')).toBeDefined();
      // Ended as it was answered (no listener), with the answer's status, the HTTP conventions'
      // attributes and the provider's resource, like a span of the SDK's.
      expect(warm!.attributes['http.response.status_code']).toBe(200);
      expect(warm!.attributes['http.route']).toBe('/warm');
      expect(warm!.attributes['http.request.method']).toBe('GET');
      expect(warm!.attributes['url.scheme']).toBe('http');
      expect(warm!.attributes['server.address']).toBe('127.0.0.1');
      expect(warm!.kind).toBe(SpanKind.SERVER);
      expect(warm!.ended).toBe(true);
      expect(warm!.status.code).toBe(SpanStatusCode.UNSET);
      expect(warm!.parentSpanContext).toBeUndefined();
      expect(trace.isSpanContextValid(warm!.spanContext())).toBe(true);
      expect(warm!.spanContext().traceId).not.toBe(work!.spanContext().traceId);
      // Ids and attributes are made when first read (by the exporter, a batch at a time): the same on every read.
      expect(warm!.spanContext().traceId).toBe(warm!.spanContext().traceId);
      expect(warm!.spanContext().spanId).toBe(warm!.spanContext().spanId);
      expect(warm!.attributes).toBe(warm!.attributes);
      expect(warm!.resource.attributes['service.name']).toBe('answered-test');
      expect(hrTimeToNanoseconds(warm!.endTime)).toBeGreaterThanOrEqual(hrTimeToNanoseconds(warm!.startTime));
      // The duration is end − start (to a microsecond: the times are floating-point milliseconds underneath).
      expect(Math.abs(hrTimeToNanoseconds(warm!.duration) - (hrTimeToNanoseconds(warm!.endTime) - hrTimeToNanoseconds(warm!.startTime)))).toBeLessThan(1_000);
      expect(work).toBeDefined();
      expect(child?.parentSpanContext?.spanId).toBe(work!.spanContext().spanId);
      expect(child?.spanContext().traceId).toBe(work!.spanContext().traceId);
      // The warm answer ran with no scope open; the work with its request's scope; none is left open.
      expect(scopesSeen).toEqual([0, 1]);
      expect(manager.openScopes).toBe(0);
    } finally {
      await new Promise((r) => server.close(r));
      await provider.shutdown();
      propagation.disable();
      context.disable();
    }
  });
});
