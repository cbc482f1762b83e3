// `terminology serve` when a port it is told to use cannot be bound: one clear message, exit
// code 1, and nothing left running — the store is closed (the next command may open it) and the
// main port is free again when it was METRICS_PORT that failed. Before, a taken PORT ended the
// process with Node's stack trace, and a taken METRICS_PORT left the server serving without it.
import { createServer, type Server } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freshStore, runHere, type Store } from '../helpers/cli.ts';

let store: Store;
let taken: Server;
let takenPort: number;

/** A port nobody listens on now (bound, then released). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  store = await freshStore('migrated');
});
afterAll(async () => {
  await store.cleanup();
});
beforeEach(async () => {
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  takenPort = (taken.address() as { port: number }).port;
});
afterEach(async () => {
  await new Promise<void>((resolve) => taken.close(() => resolve()));
});

const env = (extra: Record<string, string>) => ({ ...store.env, HOST: '127.0.0.1', LOG_LEVEL: 'error', ...extra });

describe('serve on a port that cannot be bound', () => {
  it('PORT in use: exit code 1 with the port and the setting named, no stack trace, the store closed', async () => {
    const r = await runHere(['serve'], env({ PORT: String(takenPort) }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot listen on 127.0.0.1:${takenPort} (PORT): the port is in use by another process; stop it or choose another PORT`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    // The store was closed: another command opens it (the embedded store's lock is free).
    const next = await runHere(['releases'], env({}));
    expect(next.stderr).toBe('');
    expect(next.code).toBe(0);
  }, 60_000);

  it('METRICS_PORT in use: exit code 1 naming METRICS_PORT; the main port is released, the store closed', async () => {
    const port = await freePort();
    const r = await runHere(['serve'], env({ PORT: String(port), METRICS_PORT: String(takenPort) }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot listen on 127.0.0.1:${takenPort} (METRICS_PORT): the port is in use by another process; stop it or choose another METRICS_PORT`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    // Nothing listens on the main port any more: it can be bound here.
    const again = createServer();
    await new Promise<void>((resolve, reject) => {
      again.once('error', reject);
      again.listen(port, '127.0.0.1', resolve);
    });
    await new Promise<void>((resolve) => again.close(() => resolve()));
  }, 60_000);
});
