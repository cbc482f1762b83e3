// OpenTelemetry traces on or off for a server process (README › Operations › Traces). Off
// unless an OTLP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT): then no OpenTelemetry module is loaded, no hook is set
// and the request listener is the app's own. On, the SDK (tracingSdk.ts) is imported here, once,
// before the database opens, so its statements are traced from the first request.
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
// Type only: erased, so nothing of the SDK loads with this module.
import type { Tracing } from './tracingSdk.ts';

export type { Tracing };

export async function startTracing(config: Pick<Config, 'tracing'>, log: Logger): Promise<Tracing | undefined> {
  if (!config.tracing) return undefined;
  const { createTracing } = await import('./tracingSdk.ts');
  return createTracing(config.tracing, log);
}
