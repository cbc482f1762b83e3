// The three servers bench/metrics.ts compares (metrics off, metrics on, metrics on with traces sampled
// at a ratio), their environments, and the OTLP sink the traced one exports to.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from './procs.ts';

export type ServerName = 'off' | 'on' | 'traces';
export const SERVER_NAMES: readonly ServerName[] = ['off', 'on', 'traces'];

/** The servers' own environments (beside PORT, HOST, the store and logs); `calibrate`: all three off (an A/A run). */
export async function observedEnvs(sinkUrl: string, ratio: number, calibrate: boolean): Promise<Record<ServerName, Record<string, string>>> {
  if (calibrate) return { off: {}, on: {}, traces: {} };
  return {
    off: {},
    on: { METRICS_PORT: String(await freePort()) },
    traces: {
      METRICS_PORT: String(await freePort()),
      OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl,
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: String(ratio),
    },
  };
}

/** The traces' collector: every export accepted (an empty ExportTraceServiceResponse) and counted, with its bytes. */
export interface OtlpSink {
  url: string;
  exports: number;
  bytes: number;
  close(): void;
}

export async function startOtlpSink(): Promise<OtlpSink> {
  let server: Server | undefined;
  const sink: OtlpSink = {
    url: '',
    exports: 0,
    bytes: 0,
    close: () => server?.close(),
  };
  server = createServer((req, res) => {
    req.on('data', (b: Buffer) => (sink.bytes += b.length));
    req.on('end', () => {
      sink.exports++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  sink.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return sink;
}
