// The migrated database must match prisma/schema.prisma exactly: every model,
// column (type, nullability, default), enum, index and relation. Prisma's own
// `migrate diff` needs the schema engine, which cannot be installed here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import internals from '@prisma/internals';
import { createTestDatabase, usingPostgres, type TestDatabase } from '../helpers/db.ts';
import { migrate, readMigrations } from '../../src/db/migrate.ts';
import { projectRoot } from '../../src/paths.ts';

type DMMF = Awaited<ReturnType<typeof internals.getDMMF>>;
type Model = DMMF['datamodel']['models'][number];

let db: TestDatabase;
let dmmf: DMMF;
beforeAll(async () => {
  // PostgreSQL: a new database, migrated here. PGlite: the run's migrated template, unpacked from the
  // shipped empty store, which test/db/seed-store.test.ts holds to the catalog and migration records of
  // initdb and the migrations (a new cluster here was 4-5 s of CPU for the same schema).
  db = await createTestDatabase(usingPostgres ? { template: 'none' } : {});
  dmmf = await internals.getDMMF({ datamodel: readFileSync(path.join(projectRoot, 'prisma', 'schema.prisma'), 'utf8') });
});
afterAll(async () => {
  await db?.cleanup();
});

const q = <T>(sql: string) => db.withConnection((c) => c.query<T>(sql));
const table = (m: Model) => m.dbName ?? m.name;
function column(m: Model, field: string): string {
  const f = m.fields.find((x) => x.name === field)!;
  return f.dbName ?? f.name;
}

function expectedType(f: Model['fields'][number]): string {
  if (f.kind === 'enum') return f.type;
  const native = f.nativeType as [string, string[]] | null | undefined;
  if (native) return ({ Date: 'date', Timestamptz: 'timestamptz', Timestamp: 'timestamp' } as Record<string, string>)[native[0]] ?? native[0];
  return ({ Int: 'int4', String: 'text', Boolean: 'bool', DateTime: 'timestamp', Json: 'jsonb', BigInt: 'int8', Float: 'float8', Bytes: 'bytea' } as Record<string, string>)[f.type]!;
}

describe('the migrated database matches schema.prisma', () => {
  it('has exactly the tables of the models, plus _prisma_migrations', async () => {
    const rows = await q<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    );
    expect(rows.map((r) => r.table_name).sort()).toEqual([...dmmf.datamodel.models.map(table), '_prisma_migrations'].sort());
  });

  it('has every enum with its values', async () => {
    const rows = await q<{ typname: string; labels: string[] }>(
      `SELECT t.typname, array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS labels
       FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname`,
    );
    const actual = Object.fromEntries(rows.map((r) => [r.typname, r.labels]));
    for (const e of dmmf.datamodel.enums) expect(actual[e.name], e.name).toEqual(e.values.map((v) => v.dbName ?? v.name));
  });

  it('has every column with its type, nullability and default', async () => {
    const rows = await q<{ table_name: string; column_name: string; udt_name: string; is_nullable: string; column_default: string | null; datetime_precision: number | null }>(
      "SELECT table_name, column_name, udt_name, is_nullable, column_default, datetime_precision FROM information_schema.columns WHERE table_schema = 'public'",
    );
    for (const m of dmmf.datamodel.models) {
      const cols = rows.filter((r) => r.table_name === table(m));
      const scalars = m.fields.filter((f) => f.kind !== 'object');
      expect(cols.map((c) => c.column_name).sort(), table(m)).toEqual(scalars.map((f) => f.dbName ?? f.name).sort());
      for (const f of scalars) {
        const c = cols.find((x) => x.column_name === (f.dbName ?? f.name))!;
        const where = `${table(m)}.${c.column_name}`;
        expect(c.udt_name, where).toBe(expectedType(f));
        expect(c.is_nullable, where).toBe(f.isRequired ? 'NO' : 'YES');
        if (f.type === 'DateTime' && !f.nativeType) expect(c.datetime_precision, where).toBe(3);
        // Prisma-side defaults such as uuid() or cuid() have no database default.
        const dbDefault = f.hasDefaultValue && !(typeof f.default === 'object' && f.default !== null && 'name' in f.default && ['uuid', 'cuid'].includes((f.default as { name: string }).name));
        expect(c.column_default !== null, where).toBe(dbDefault);
      }
    }
  });

  it('has every index, unique constraint and primary key with its columns and method', async () => {
    const rows = await q<{ name: string; tbl: string; unique: boolean; primary: boolean; cols: string[]; method: string }>(
      `SELECT i.relname::text AS name, t.relname::text AS tbl, ix.indisunique AS unique, ix.indisprimary AS primary, am.amname::text AS method,
              array_agg(a.attname::text ORDER BY k.ord) AS cols
       FROM pg_index ix
       JOIN pg_class i ON i.oid = ix.indexrelid
       JOIN pg_class t ON t.oid = ix.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
       JOIN pg_am am ON am.oid = i.relam
       CROSS JOIN LATERAL unnest(ix.indkey) WITH ORDINALITY AS k(attnum, ord)
       JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
       WHERE n.nspname = 'public' AND t.relname <> '_prisma_migrations'
       GROUP BY i.relname, t.relname, ix.indisunique, ix.indisprimary, am.amname`,
    );
    const expected = (dmmf.datamodel as unknown as { indexes: { model: string; type: string; dbName?: string | null; algorithm?: string; fields: { name: string }[] }[] }).indexes.map((ix) => {
      const m = dmmf.datamodel.models.find((x) => x.name === ix.model)!;
      const cols = ix.fields.map((f) => column(m, f.name));
      const suffix = ix.type === 'id' ? 'pkey' : ix.type === 'unique' ? 'key' : 'idx';
      const name = ix.dbName ?? (ix.type === 'id' ? `${table(m)}_pkey` : `${table(m)}_${cols.join('_')}_${suffix}`);
      return { name, tbl: table(m), unique: ix.type !== 'normal', primary: ix.type === 'id', cols, method: (ix.algorithm ?? 'btree').toLowerCase() };
    });
    const sort = <T extends { name: string }>(a: T[]) => [...a].sort((x, y) => x.name.localeCompare(y.name));
    expect(sort(rows)).toEqual(sort(expected));
  });

  it('has every relation as a foreign key with its referential actions', async () => {
    const rows = await q<{ tbl: string; cols: string[]; ref: string; refcols: string[]; ondelete: string }>(
      `SELECT t.relname::text AS tbl, r.relname::text AS ref, c.confdeltype AS ondelete,
              (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(c.conkey) WITH ORDINALITY k(n, ord) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n) AS cols,
              (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(c.confkey) WITH ORDINALITY k(n, ord) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n) AS refcols
       FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class r ON r.oid = c.confrelid
       WHERE c.contype = 'f'`,
    );
    const actions: Record<string, string> = { Cascade: 'c', Restrict: 'r', SetNull: 'n', NoAction: 'a', SetDefault: 'd' };
    const expected = dmmf.datamodel.models.flatMap((m) =>
      m.fields
        .filter((f) => f.kind === 'object' && f.relationFromFields && f.relationFromFields.length > 0)
        .map((f) => {
          const target = dmmf.datamodel.models.find((x) => x.name === f.type)!;
          return {
            tbl: table(m),
            cols: f.relationFromFields!.map((n) => column(m, n)),
            ref: table(target),
            refcols: f.relationToFields!.map((n) => column(target, n)),
            ondelete: actions[(f.relationOnDelete as string | undefined) ?? 'NoAction'],
          };
        }),
    );
    const key = (r: { tbl: string; cols: string[] }) => `${r.tbl}(${r.cols.join(',')})`;
    expect([...rows].sort((a, b) => key(a).localeCompare(key(b)))).toEqual([...expected].sort((a, b) => key(a).localeCompare(key(b))));
  });

  it('records every migration in _prisma_migrations as Prisma does, and a second run applies nothing', async () => {
    const rows = await q<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }>(
      'SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
    );
    const files = readMigrations();
    expect(files.length).toBeGreaterThan(0);
    expect(rows.map((r) => [r.migration_name, r.checksum, r.applied_steps_count])).toEqual(files.map((f) => [f.name, f.checksum, 1]));
    expect(rows.every((r) => r.finished_at instanceof Date)).toBe(true);
    const again = await migrate(db);
    expect(again.applied).toEqual([]);
    expect(again.alreadyApplied).toEqual(files.map((f) => f.name));
  });
});
