// `terminology serve` against a PostgreSQL that accepts TCP but never answers (a stalled
// proxy): every attempt is bounded and logged, and after the start budget the process
// exits 1 with a clear message — naming host and port, never the password. When the
// database starts answering within the budget, the server comes up without a restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFreshPostgres } from '../helpers/db.ts';
import { proxiedPostgres, type TcpProxy } from '../helpers/tcpProxy.ts';
import { run } from '../helpers/cli.ts';
import { startServerProcess } from '../helpers/server.ts';

let pgdb: Awaited<ReturnType<typeof createFreshPostgres>>;
let proxy: TcpProxy;
let url: URL;

beforeAll(async () => {
  pgdb = await createFreshPostgres();
  ({ proxy, url } = await proxiedPostgres(pgdb.url));
  url.password = 'sentinel-password';
});
afterAll(async () => {
  await proxy?.close();
  await pgdb?.drop();
});

const env = () => ({
  DATABASE_URL: url.toString(),
  DATABASE_CONNECT_TIMEOUT_MS: '500',
  TERMINOLOGY_DEMO: 'false',
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
});

describe('start-up against an unresponsive database', () => {
  it('logs each retry and exits 1 with a clear message after DATABASE_START_TIMEOUT_MS', async () => {
    await proxy.stall();
    const started = Date.now();
    const r = await run(['serve'], { ...env(), DATABASE_START_TIMEOUT_MS: '2500' }, 30_000);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    // Start budget, plus one attempt, plus the process's own start.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(r.stderr).toContain('connecting to the database');
    expect(r.stderr.match(/database not reachable; retrying/g)?.length).toBeGreaterThanOrEqual(2);
    expect(r.stderr).toContain(`Cannot reach the database at 127.0.0.1:${proxy.port}/`);
    expect(r.stderr).toContain('DATABASE_START_TIMEOUT_MS');
    expect(r.stderr).not.toContain('sentinel-password');
    expect(r.stderr).not.toContain('is listening');
  }, 40_000);

  it('comes up by itself once the database answers within the budget', async () => {
    await proxy.stall();
    // Mend the link once the server has given up on one connection and is trying another.
    const before = proxy.accepted();
    const mend = setInterval(() => {
      if (proxy.accepted() >= before + 2) void proxy.restore().then(() => clearInterval(mend));
    }, 50);
    try {
      // The proxy only forwards; PostgreSQL itself trusts local connections, so the password is ignored.
      const server = await startServerProcess({ ...env(), DATABASE_START_TIMEOUT_MS: '30000' }, 40_000);
      expect(server.logs()).toMatch(/database not reachable; retrying/);
      expect((await fetch(`${server.url}/health/ready`)).status).toBe(200);
      expect(await server.stop()).toBe(0);
    } finally {
      clearInterval(mend);
    }
  }, 60_000);
});
