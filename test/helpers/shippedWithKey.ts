// The shipped server as the hostile suites start it: a copy of the demo store, one API key (made
// in this process by the product's own code: test/cli/keys.test.ts runs `keys create` as a
// process, and these suites run alone, so a process start here is wall time of the whole run),
// then `serve` on the shipped defaults (only the store passed on, TRUST_PROXY for the
// per-request client addresses that keep the default rate limit out of the way).
import { freshStore, withStoreDb, type Store } from './cli.ts';
import { startServerProcess, type ServerProcess } from './server.ts';
import { createApiKey } from '../../src/domain/apiKeys.ts';

export interface ShippedWithKey {
  store: Store;
  server: ServerProcess;
  key: string;
  /** The keys made beside `key` (startShippedWithKey's moreKeys). */
  keys: string[];
  stop(): Promise<void>;
}

/**
 * `extra`: settings beside the defaults (a test of another budget, metrics on). `keys`: more keys
 * made beside the first (ShippedWithKey.keys). `bin`: another checkout's CLI (a benchmark's baseline).
 */
export async function startShippedWithKey(keyName: string, extra: Record<string, string> = {}, moreKeys = 0, bin?: string): Promise<ShippedWithKey> {
  const store = await freshStore('demo');
  const env: Record<string, string> = store.url
    ? { DATABASE_URL: store.url, REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }
    : { TERMINOLOGY_DATA_DIR: store.dataDir! };
  const { key, keys } = await withStoreDb(store, async (db) => {
    const first = await createApiKey(db.prisma, keyName);
    const more: string[] = [];
    for (let k = 0; k < moreKeys; k++) more.push((await createApiKey(db.prisma, `${keyName} ${k}`)).key);
    return { key: first.key, keys: more };
  });
  const server = await startServerProcess({ ...env, ...extra, PORT: '0', TRUST_PROXY: '127.0.0.1' }, 120_000, { baseEnv: false, bin, shipped: true });
  return {
    store,
    server,
    key,
    keys,
    async stop() {
      await server.stop();
      await store.cleanup();
    },
  };
}

/** A new client address per call (10.x.y.z), so each request is a client of its own for the rate limit. */
export function clientAddresses(): () => string {
  let ip = 0;
  return () => `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip++ & 255}`;
}
