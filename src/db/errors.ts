// Recognises "the database cannot be reached" among driver and Prisma errors, so the
// API answers 503 with Retry-After (a transient fault) instead of 500.
const CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN',
  // PostgreSQL: connection exceptions, admin shutdown, cannot connect now, too many connections.
  '08000', '08001', '08003', '08004', '08006', '57P01', '57P02', '57P03', '53300',
  // statement_timeout (DATABASE_QUERY_TIMEOUT_MS): the database did not answer in time.
  '57014',
  // Prisma: can't reach server, timed out, server closed the connection.
  'P1001', 'P1002', 'P1017', 'P2024',
]);
const MESSAGES = /Query read timeout|timeout expired|Server has closed the connection|Connection terminated|connection (?:is )?closed|Can't reach database|timeout exceeded when trying to connect|Client has encountered a connection error|DatabaseNotReachable|ConnectionClosed|socket hang up/i;

export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  let e: unknown = err;
  while (e && typeof e === 'object' && !seen.has(e)) {
    seen.add(e);
    const o = e as { code?: unknown; message?: unknown; kind?: unknown; cause?: unknown; originalError?: unknown; errors?: unknown[]; meta?: { driverAdapterError?: unknown } };
    if (typeof o.code === 'string' && CODES.has(o.code)) return true;
    if (typeof o.kind === 'string' && /DatabaseNotReachable|ConnectionClosed|SocketTimeout|TooManyConnections/.test(o.kind)) return true;
    if (typeof o.message === 'string' && MESSAGES.test(o.message)) return true;
    if (Array.isArray(o.errors) && o.errors.some((x) => isDatabaseUnavailable(x))) return true;
    // Prisma keeps the driver's error (with PostgreSQL's SQLSTATE) under meta.driverAdapterError.
    e = o.originalError ?? o.cause ?? o.meta?.driverAdapterError;
  }
  return false;
}

/** Seconds a client should wait before retrying after a database outage. */
export const DB_RETRY_AFTER_SECONDS = 5;
