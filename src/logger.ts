// Structured JSON logs (pino). Redaction is belt and braces: code never passes
// keys or narrative text to the logger in the first place.
import { pino, type Logger } from 'pino';
import PinoPretty from 'pino-pretty';

export type { Logger };

/** `auto`: readable lines when stderr is a terminal (a person ran `npm start`), JSON otherwise. */
export type LogFormat = 'auto' | 'json' | 'pretty';

export function createLogger(level: string = process.env.LOG_LEVEL ?? 'info', destination?: pino.DestinationStream, format: LogFormat = 'json'): Logger {
  const pretty = !destination && (format === 'pretty' || (format === 'auto' && process.stderr.isTTY === true));
  return pino(
    {
      level,
      base: { service: 'terminology-explorer' },
      redact: {
        paths: ['req.headers["x-api-key"]', 'req.headers.authorization', 'headers["x-api-key"]', 'apiKey', 'key', 'description', 'narrative'],
        censor: '[redacted]',
      },
    },
    // Synchronous, in this thread: a transport worker would outlive a crash's last lines.
    destination ?? (pretty ? PinoPretty({ destination: 2, sync: true, ignore: 'pid,hostname,service', translateTime: 'SYS:HH:MM:ss' }) : pino.destination(2)),
  );
}
