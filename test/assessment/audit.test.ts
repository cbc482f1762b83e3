// Audit records are written behind the response, batched, and never lost at flush.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { AuditLog } from '../../src/assessment/audit.ts';
import { createLogger } from '../../src/logger.ts';
import { captureLogs } from '../helpers/http.ts';

let db: TestDatabase;
const queries: string[] = [];
beforeAll(async () => {
  db = await createTestDatabase({ onQuery: (sql) => queries.push(sql) });
});
afterAll(async () => {
  await db?.cleanup();
});

const entry = (i: number) => ({ requestId: `req-${i}`, endpoint: '/classify', release: '5.0', provider: 'lexical', fallback: null, latencyMs: 3, status: 200, apiKeyId: null, text: `narrative ${i}` });

describe('audit log', () => {
  it('queues without waiting, writes a burst in one statement, and flush() waits for all of it', async () => {
    const audit = new AuditLog(db.prisma, false, createLogger('silent'));
    queries.length = 0;
    for (let i = 0; i < 40; i++) audit.record(entry(i));
    expect(queries).toEqual([]); // nothing on the caller's path
    await audit.flush();
    expect(queries.filter((q) => /insert/i.test(q))).toHaveLength(1);
    const rows = await db.prisma.auditRecord.findMany({ where: { requestId: { startsWith: 'req-' } }, orderBy: { requestId: 'asc' } });
    expect(rows).toHaveLength(40);
    expect(rows.every((r) => r.text === null)).toBe(true); // text only on opt-in
  });

  it('a failed write is logged with the request ids, never the text, and never thrown', async () => {
    const logs = captureLogs();
    const broken = { auditRecord: { createMany: async () => { throw new Error('connection refused'); } } };
    const audit = new AuditLog(broken as never, true, createLogger('info', logs.stream));
    audit.record(entry(900));
    await audit.flush();
    const line = logs.lines().find((l) => l.msg === 'audit records not written');
    expect(line).toMatchObject({ requestIds: ['req-900'] });
    expect(JSON.stringify(logs.lines())).not.toContain('narrative 900');
  });
});
