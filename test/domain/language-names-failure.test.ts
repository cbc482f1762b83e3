// The second languages' names of every release are read once (languageNameHistory.ts); a failed read
// is a warning about no one release (no `release` field in the log line), code pages fall back to SQL
// (nameAt answers undefined) and the read is not retried within a minute while as many releases are hosted.
// And a read in chunks gives the event loop a turn between them (a database answering in promise
// callbacks, as PGlite does, let none run: every request waited for the whole read).
import { describe, expect, it } from 'vitest';
import { LanguageNameHistories, LanguageNames } from '../../src/domain/languageNameHistory.ts';
import type { ReleaseInfo } from '../../src/domain/releases.ts';
import { turnsWhile } from '../helpers/turns.ts';

const release = (id: number, ordinal: number): ReleaseInfo => ({
  id,
  version: `9${ordinal}.0`,
  language: 'en',
  languages: ['en', 'de'],
  releaseDate: null,
  ordinal,
  isLatest: ordinal === 2,
  importedAt: new Date(0),
  namesImportedAt: { en: 1, de: 1 },
} as ReleaseInfo);

describe('a failed read of the second languages\' names', () => {
  it('warns once with the cause, answers undefined (SQL), and does not retry at once', async () => {
    let statements = 0;
    const db = { $queryRawUnsafe: async () => { statements++; throw new Error('connection reset'); } } as any;
    const warnings: { message: string; error: unknown }[] = [];
    const list = [release(2, 2), release(1, 1)];
    const names = new LanguageNameHistories(db, () => list, 1 << 20, (message, error) => warnings.push({ message, error }));
    expect(names.nameAt(1, 'de', 'PT', 10000001)).toBeUndefined();
    await names.settled();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toMatch(/the de names of the hosted releases could not be read/);
    expect((warnings[0]!.error as Error).message).toBe('connection reset');
    const after = statements;
    expect(after).toBeGreaterThan(0);
    // Within RETRY_MS, with as many releases hosted: no new read, still undefined.
    expect(names.nameAt(2, 'de', 'PT', 10000001)).toBeUndefined();
    await names.settled();
    expect(statements).toBe(after);
    expect(warnings).toHaveLength(1);
    // The primary language is never read here (its names are in the index).
    expect(names.nameAt(1, 'en', 'PT', 10000001)).toBeUndefined();
    expect(names.reads).toBe(1);
  });
});

describe('the read of a language\'s names in chunks', () => {
  it('gives the event loop a turn between chunks when the database answers in promise callbacks', async () => {
    const CHUNK = 20_000; // languageNameHistory.ts CHUNK_ROWS
    const chunks = [CHUNK, CHUNK, CHUNK, 7];
    let next = 0;
    let code = 10_000_000;
    // Resolves at once, as PGlite's statements do (no I/O between them).
    const db = {
      $queryRawUnsafe: async (sql: string) => {
        if (sql.includes('FROM "release"')) return [{ id: 1, seq: '1', at: 1 }, { id: 2, seq: '2', at: 1 }];
        const n = chunks[next++] ?? 0;
        return Array.from({ length: n }, () => ({ l: 'PT', code: code++, f: '1', t: '9223372036854775807', name: 'Kopfschmerz' }));
      },
    } as any;
    const { value: names, turns } = await turnsWhile(LanguageNames.read(db, 'de', 1 << 30));
    expect(names).not.toBeNull();
    expect(names!.find(0, 'PT', 10_000_000)).toBe('Kopfschmerz');
    expect(turns).toBeGreaterThanOrEqual(chunks.length - 1);
  });
});
