// The order of change records' terms as the change listing (listing.ts) sorts them: the
// database's collation (one statement), or code points when it collates bytewise. Ranks can be
// asked for before the records exist (rangedDiff.ts, beside the names) and handed to the listing.
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { ChangeRecord } from './engine.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

/** Code points compared one by one: the order of their utf-8 bytes (jsonb compares keys bytewise). */
export function byCodePoints(a: string, b: string): number {
  // UTF-16 order is code point order but for surrogates (U+10000 and above) against U+E000–U+FFFF.
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const sx = x >= 0xd800 && x <= 0xdfff;
    const sy = y >= 0xd800 && y <= 0xdfff;
    return sx === sy ? x - y : sx ? 1 : -1;
  }
  return a.length - b.length;
}

/** Rank of each term (equal terms, equal ranks) in the database's collation, the order of the listing's `ORDER BY term`: sorted by the database. */
export async function termRanksByDatabase(db: Db, terms: readonly string[]): Promise<Int32Array> {
  // The order as one text value: 50k integers parse faster from a comma list than from an int[] literal.
  // The terms as one JSON text, not a text[]: the driver's array serialising of 200k strings was one
  // turn of ~0.1 s on the thread that sends it (the serving thread: worker.ts sends the worker's statements).
  const [row] = await db.$queryRawUnsafe<{ o: string | null }[]>(
    `SELECT string_agg(u.i::text, ',' ORDER BY u.t, u.i) AS o FROM json_array_elements_text($1::json) WITH ORDINALITY AS u(t, i)`,
    JSON.stringify(terms),
  );
  const ranks = new Int32Array(terms.length);
  let rank = 0;
  let prev: string | undefined;
  for (const part of row?.o ? row.o.split(',') : []) {
    const i = Number(part) - 1;
    const t = terms[i]!;
    // The collations PostgreSQL and PGlite use by default are deterministic: equal only when the same string.
    if (t !== prev) rank++;
    ranks[i] = rank;
    prev = t;
  }
  if (row?.o ? false : terms.length > 0) throw new Error('term order: no answer');
  return ranks;
}

/** Rank of each term by code points: the order of a C collation (utf-8 bytes), sorted here. */
export function termRanksByCodePoints(terms: readonly string[]): Int32Array {
  const order = Int32Array.from(terms, (_, i) => i).sort((a, b) => byCodePoints(terms[a]!, terms[b]!) || a - b);
  const ranks = new Int32Array(terms.length);
  let rank = 0;
  let prev: string | undefined;
  for (const i of order) {
    if (terms[i] !== prev) rank++;
    ranks[i] = rank;
    prev = terms[i];
  }
  return ranks;
}

/**
 * Whether the database orders text by its bytes (libc collation C or POSIX): then terms are
 * ordered here, with no statement. Any other collation (a language's, ICU) is the database's to
 * apply. Asked once per database client.
 */
const bytewise = new WeakMap<object, Promise<boolean>>();
function ordersBytewise(db: Db): Promise<boolean> {
  let p = bytewise.get(db);
  if (!p) {
    p = db
      .$queryRawUnsafe<{ c: string; p: string | null }[]>(`SELECT datcollate AS c, to_jsonb(d) ->> 'datlocprovider' AS p FROM pg_database d WHERE datname = current_database()`)
      .then(([r]) => !!r && (r.p === null || r.p === 'c') && (r.c === 'C' || r.c === 'POSIX'), () => false);
    bytewise.set(db, p);
  }
  return p;
}

/** Rank of each term in the listing's order (equal terms, equal ranks; gaps allowed). */
export async function termRanks(db: Db, terms: readonly string[]): Promise<Int32Array> {
  return (await ordersBytewise(db)) ? termRanksByCodePoints(terms) : termRanksByDatabase(db, terms);
}

/**
 * Term ranks begun before the records were made, by records array (round 12: rangedDiff.ts asks
 * the database for the term order beside the names statements, over the diff's rows, and maps
 * it to the records): the first far page no longer waits for that statement after describing.
 */
const presetRanks = new WeakMap<readonly ChangeRecord[], Promise<Int32Array>>();
export const presetTermRanks = (records: readonly ChangeRecord[]) => presetRanks.get(records);
export function withTermRanks(records: readonly ChangeRecord[], ranks: Promise<Int32Array>): void {
  ranks.catch(() => undefined); // awaited by the listing, if one is built
  presetRanks.set(records, ranks);
}
