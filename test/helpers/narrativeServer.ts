// The shipped server for the coding-engine tests (test/e2e/engine-*.test.ts): a copy of the demo
// store with an API key (made in this process: test/cli/keys.test.ts runs `keys create`), then
// `terminology serve` on it with the given engine settings; and a long label that keeps a worker
// busy for seconds.
import { freshStore, withStoreDb } from './cli.ts';
import { startServerProcess, type ServerProcess } from './server.ts';
import { createApiKey } from '../../src/domain/apiKeys.ts';

export interface Narrative {
  server: ServerProcess;
  key: string;
}

export async function startWithKey(env: Record<string, string>): Promise<Narrative> {
  const fresh = await freshStore('demo');
  const { key } = await withStoreDb(fresh, (db) => createApiKey(db.prisma, 'pool'));
  const store = { TERMINOLOGY_DATA_DIR: fresh.dataDir!, TERMINOLOGY_REPORT_LOADER: '1', RATE_LIMIT_PER_MINUTE: '0', AI_RATE_LIMIT_PER_MINUTE: '0' };
  const server = await startServerProcess({ ...store, SEARCH_INDEX_WARM_DELAY_MS: '-1', ...env });
  return { server, key };
}

export function post(n: Narrative, route: string, body: unknown): Promise<Response> {
  return fetch(n.server.url + route, { method: 'POST', headers: { 'X-API-Key': n.key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

export async function timed<T>(f: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t = performance.now();
  const value = await f();
  return { value, ms: performance.now() - t };
}

// Each section also names three words of its own that no vocabulary holds (letters from its
// number): the engine remembers what it has looked up, so a label repeating one section would
// cost little after the first and no longer keep a worker busy.
const oddWord = (n: number) => Array.from({ length: 8 }, (_, k) => String.fromCharCode(97 + ((n * 7 + k * 11 + Math.floor(n / (k + 1))) % 26))).join('');

/** A legitimate, long product label: seconds of coding work. */
export const LONG_LABEL = Array.from(
  { length: 3_000 }, // ≈ 900 KB: under MAX_LABEL (1,000,000 characters) and the default body limit
  (_, i) =>
    `ADVERSE REACTIONS\n${i + 1}.1 Clinical Trials Experience\nThe most common adverse reactions (incidence of at least 5%) were nausea, vomiting, ` +
    `diarrhea, headache, dizziness, fatigue and rash; also ${oddWord(3 * i)}, ${oddWord(3 * i + 1)} and ${oddWord(3 * i + 2)}. ` +
    'Serious hepatotoxicity and myocardial infarction were reported; no cases of seizure occurred.\n\n',
).join('');
