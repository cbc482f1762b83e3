// Structured JSON logs (pino). Redaction is belt and braces: code never passes
// keys or narrative text to the logger in the first place.
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string = process.env.LOG_LEVEL ?? 'info', destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'terminology-explorer' },
      redact: {
        paths: ['req.headers["x-api-key"]', 'req.headers.authorization', 'headers["x-api-key"]', 'apiKey', 'key', 'description', 'narrative'],
        censor: '[redacted]',
      },
    },
    destination ?? pino.destination(2),
  );
}
