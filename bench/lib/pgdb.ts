// A fresh PostgreSQL database beside the one DATABASE_URL names (the benches' PostgreSQL mode),
// dropped afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export async function createFreshPostgres(admin: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `te_bench_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const u = new URL(admin);
  u.pathname = `/${name}`;
  // One drop, shared: a signal's cleanup may ask while the mode's own drop is in flight, and
  // must wait for it rather than let the process exit under it.
  let dropping: Promise<void> | undefined;
  return {
    url: u.toString(),
    drop() {
      dropping ??= (async () => {
        const c = new pg.Client({ connectionString: admin });
        await c.connect();
        try {
          await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        } finally {
          await c.end();
        }
      })();
      return dropping;
    },
  };
}
