// An OTLP/HTTP trace receiver for tests: a node:http server on loopback that accepts what
// OpenTelemetry exporters send to /v1/traces. JSON exports (http/json) are decoded into spans;
// protobuf exports (http/protobuf) are kept as bytes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  traceState?: string;
  name: string;
  /** 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  status: { code?: number };
  /** The resource's attributes (service.name…). */
  resource: Record<string, string | number | boolean>;
}

export interface Export {
  path: string;
  contentType: string;
  body: Buffer;
}

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
type KeyValue = { key: string; value: AnyValue };

const valueOf = (v: AnyValue): string | number | boolean => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.doubleValue ?? ''));
const attributesOf = (list: KeyValue[] | undefined) => Object.fromEntries((list ?? []).map((a) => [a.key, valueOf(a.value)]));

export interface OtlpReceiver {
  /** Base URL, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  exports: Export[];
  /** Every span of the JSON exports received so far. */
  spans(): OtlpSpan[];
  /** Waits until `pick` returns a value (polling the spans received), or fails after `timeoutMs`. */
  waitFor<T>(pick: (spans: OtlpSpan[]) => T | undefined | false, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const exports: Export[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      exports.push({ path: req.url ?? '', contentType: req.headers['content-type'] ?? '', body: Buffer.concat(chunks) });
      // An empty ExportTraceServiceResponse: everything accepted.
      const json = (req.headers['content-type'] ?? '').includes('json');
      res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      res.end(json ? '{}' : Buffer.alloc(0));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const spans = (): OtlpSpan[] =>
    exports
      .filter((e) => e.contentType.includes('json'))
      .flatMap((e) => {
        const body = JSON.parse(e.body.toString('utf8')) as {
          resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { spans?: (Omit<OtlpSpan, 'attributes' | 'resource'> & { attributes?: KeyValue[] })[] }[] }[];
        };
        return (body.resourceSpans ?? []).flatMap((rs) =>
          (rs.scopeSpans ?? []).flatMap((ss) =>
            (ss.spans ?? []).map((s) => ({ ...s, attributes: attributesOf(s.attributes), resource: attributesOf(rs.resource?.attributes) })),
          ),
        );
      });
  return {
    url,
    exports,
    spans,
    async waitFor(pick, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = pick(spans());
        if (found !== undefined && found !== false) return found;
        if (Date.now() > deadline) throw new Error(`no such spans within ${timeoutMs} ms; received:\n${spans().map((s) => `${s.traceId} ${s.spanId} <- ${s.parentSpanId ?? '-'} ${s.name}`).join('\n')}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
