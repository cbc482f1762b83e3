// Per-key usage: how often each API key was used per endpoint family, and when last. Kept in
// the database (api_key_usage) so every replica adds to the same counts, but never written
// per request: uses are counted in memory and added in one upsert per flush (every
// USAGE_FLUSH_MS, and at shutdown), with the keys' last_used_at in a second statement. Only
// counts and times are stored, nothing of the request.
import type { PrismaClient } from '../generated/prisma/client.ts';

/** narrative: identify, classify, labels (REST or GraphQL); impact: impact analysis; smq: applying an SMQ to coded rows. */
export type UsageFamily = 'narrative' | 'impact' | 'smq' | 'lists';

export const USAGE_FLUSH_MS = 10_000;
/** Pending (key, family) pairs kept at most between flushes (keys are few; this only bounds a pathological case). */
const MAX_PENDING = 10_000;

interface Pending {
  keyId: string;
  family: UsageFamily;
  count: number;
  last: Date;
}

export interface KeyUsage {
  family: string;
  count: number;
  lastUsedAt: Date;
}

type Db = Pick<PrismaClient, '$executeRawUnsafe'>;

export class KeyUsageRecorder {
  private pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly opts: { flushMs?: number; onError?: (e: Error) => void } = {},
  ) {}

  /** One use of the key for the family: a map update, no I/O. */
  record(keyId: string, family: UsageFamily): void {
    const k = `${keyId}\t${family}`;
    let p = this.pending.get(k);
    if (!p) {
      if (this.pending.size >= MAX_PENDING) return;
      this.pending.set(k, (p = { keyId, family, count: 0, last: new Date() }));
    }
    p.count++;
    p.last = new Date();
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.flush();
      }, this.opts.flushMs ?? USAGE_FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Adds what was counted since the last flush to the database (one flush at a time). */
  flush(): Promise<void> {
    this.running = this.running.then(() => this.write());
    return this.running;
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    const params: unknown[] = [];
    const rows = batch.map((p) => {
      params.push(p.keyId, p.family, p.count, p.last.toISOString());
      const n = params.length;
      return `($${n - 3}, $${n - 2}, $${n - 1}::bigint, $${n}::timestamptz)`;
    });
    try {
      // A key deleted meanwhile (never done by the CLI, which revokes) would fail the foreign key: joined away.
      await this.db.$executeRawUnsafe(
        `INSERT INTO api_key_usage (api_key_id, family, count, last_used_at)
         SELECT v.id, v.family, v.n, v.at FROM (VALUES ${rows.join(', ')}) AS v(id, family, n, at) JOIN api_key k ON k.id = v.id
         ON CONFLICT (api_key_id, family) DO UPDATE
           SET count = api_key_usage.count + EXCLUDED.count, last_used_at = GREATEST(api_key_usage.last_used_at, EXCLUDED.last_used_at)`,
        ...params,
      );
      await this.db.$executeRawUnsafe(
        `UPDATE api_key k SET last_used_at = GREATEST(k.last_used_at, v.at)
         FROM (SELECT id, max(at) AS at FROM (VALUES ${rows.join(', ')}) AS u(id, family, n, at) GROUP BY id) AS v WHERE k.id = v.id`,
        ...params,
      );
    } catch (e) {
      // Counted again at the next flush (the database may be back by then).
      for (const p of batch) {
        const k = `${p.keyId}\t${p.family}`;
        const now = this.pending.get(k);
        if (now) {
          now.count += p.count;
          if (p.last > now.last) now.last = p.last;
        } else if (this.pending.size < MAX_PENDING) this.pending.set(k, p);
      }
      this.opts.onError?.(e as Error);
    }
  }
}

/** Usage of every key, by key id, families in name order. */
export async function usageByKey(prisma: Pick<PrismaClient, 'apiKeyUsage'>): Promise<Map<string, KeyUsage[]>> {
  const rows = await prisma.apiKeyUsage.findMany({ orderBy: [{ apiKeyId: 'asc' }, { family: 'asc' }] });
  const out = new Map<string, KeyUsage[]>();
  for (const r of rows) {
    let list = out.get(r.apiKeyId);
    if (!list) out.set(r.apiKeyId, (list = []));
    list.push({ family: r.family, count: Number(r.count), lastUsedAt: r.lastUsedAt });
  }
  return out;
}
