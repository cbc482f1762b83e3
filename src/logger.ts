// Structured JSON logs (pino). Redaction is belt and braces: code never passes
// keys or narrative text to the logger in the first place.
import { createRequire } from 'node:module';
import { pino, type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';

export type { Logger };

/** `auto`: readable lines when stderr is a terminal (a person ran `npm start`), JSON otherwise. */
export type LogFormat = 'auto' | 'json' | 'pretty';

/**
 * Fields added to every line written (a hook, so this module imports nothing): tracing sets it
 * to the current request's trace and span ids (src/observability/tracingSdk.ts).
 */
export const logContext: { fields?: () => Record<string, string> | undefined } = {};
// A new object each line: pino merges the line's own fields into what the mixin returns.
const logMixin = () => logContext.fields?.() ?? {};

export function createLogger(level: string = process.env.LOG_LEVEL ?? 'info', destination?: pino.DestinationStream, format: LogFormat = 'json'): Logger {
  const pretty = !destination && (format === 'pretty' || (format === 'auto' && process.stderr.isTTY === true));
  return pino(
    {
      level,
      base: { service: 'terminology-explorer' },
      mixin: logMixin,
      redact: {
        paths: ['req.headers["x-api-key"]', 'req.headers.authorization', 'headers["x-api-key"]', 'apiKey', 'key', 'description', 'narrative'],
        censor: '[redacted]',
      },
    },
    // Synchronous, in this thread: a transport worker would outlive a crash's last lines.
    destination ?? (pretty ? prettyPrinter()({ destination: 2, sync: true, ignore: 'pid,hostname,service', translateTime: 'SYS:HH:MM:ss' }) : pino.destination(2)),
  );
}

/** pino-pretty, loaded only for a terminal: JSON logs (every server and test) never load its ~30 modules. */
const prettyPrinter = (): typeof PinoPretty => createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
