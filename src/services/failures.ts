// Which failures are a transient outage rather than a fault: every surface answers those
// with 503 and Retry-After. Re-exported here so surfaces need not reach into src/db.
export { DB_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/errors.ts';
