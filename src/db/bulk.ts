// Set-based bulk insert that works the same on PGlite and PostgreSQL through
// Prisma: each chunk is one INSERT … SELECT FROM json_to_recordset($json), so
// 100k rows cost a few dozen statements instead of 100k round trips.
import type { Prisma } from '../generated/prisma/client.ts';

export interface Column<R> {
  /** Column name in the table. */
  name: string;
  /** SQL type in the recordset definition (int, text, boolean, jsonb…). */
  type: string;
  /** Optional cast applied on select, e.g. '"Level"' for enums. */
  cast?: string;
  get: (row: R) => unknown;
}

type Executor = Pick<Prisma.TransactionClient, '$executeRawUnsafe'>;

export async function bulkInsert<R>(
  tx: Executor,
  table: string,
  fixed: Record<string, number>,
  columns: Column<R>[],
  rows: readonly R[],
  opts: { chunkSize?: number; onChunk?: (inserted: number) => void; /** e.g. 'DO NOTHING': rows whose key exists are skipped. */ onConflict?: string } = {},
): Promise<number> {
  const chunkSize = opts.chunkSize ?? 5_000;
  const fixedNames = Object.keys(fixed);
  const names = [...fixedNames, ...columns.map((c) => c.name)].map((n) => `"${n}"`).join(', ');
  const selects = [
    ...fixedNames.map((_, i) => `$${i + 2}::int`),
    ...columns.map((c, i) => (c.cast ? `x.c${i}::${c.cast}` : `x.c${i}`)),
  ].join(', ');
  const recordDef = columns.map((c, i) => `c${i} ${c.type}`).join(', ');
  const conflict = opts.onConflict ? ` ON CONFLICT ${opts.onConflict}` : '';
  const sql = `INSERT INTO "${table}" (${names}) SELECT ${selects} FROM json_to_recordset($1::json) AS x(${recordDef})${conflict}`;
  let inserted = 0;
  for (let start = 0; start < rows.length; start += chunkSize) {
    const chunk = rows.slice(start, start + chunkSize);
    const json = JSON.stringify(
      chunk.map((r) => {
        const o: Record<string, unknown> = {};
        columns.forEach((c, i) => (o[`c${i}`] = c.get(r)));
        return o;
      }),
    );
    inserted += await tx.$executeRawUnsafe(sql, json, ...Object.values(fixed));
    opts.onChunk?.(inserted);
  }
  return inserted;
}
