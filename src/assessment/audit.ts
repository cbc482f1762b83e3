// Audit trail of narrative requests: who (key id), what (endpoint, release, provider,
// fallback), how long, with which outcome. The narrative is kept only on opt-in.
//
// Written behind the response: entries queue and go to the database in one multi-row
// insert per event-loop turn, so an answer never waits for the audit write (it was one
// awaited INSERT and commit per request). flush() — called at shutdown — waits for all.
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { Logger } from '../logger.ts';

export interface AuditEntry {
  requestId: string;
  endpoint: string;
  release: string | null;
  provider: string;
  fallback: string | null;
  latencyMs: number;
  status: number;
  apiKeyId: string | null;
  text: string;
}

export class AuditLog {
  private queue: AuditEntry[] = [];
  private writing: Promise<void> = Promise.resolve();
  private scheduled = false;

  constructor(
    private readonly prisma: Pick<PrismaClient, 'auditRecord'>,
    private readonly storeText: boolean,
    private readonly log: Logger,
  ) {}

  /** Queues the entry; never fails the request it records. */
  record(e: AuditEntry): void {
    this.queue.push(e);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const batch = this.queue;
      this.queue = [];
      // Chained: batches are written in order, one at a time.
      this.writing = this.writing.then(() => this.write(batch));
    });
  }

  /** Resolves once every entry recorded so far is written (or its failure logged). */
  async flush(): Promise<void> {
    while (this.scheduled || this.queue.length > 0) await new Promise((r) => setImmediate(r));
    await this.writing;
  }

  private async write(batch: AuditEntry[]): Promise<void> {
    if (batch.length === 0) return;
    try {
      await this.prisma.auditRecord.createMany({ data: batch.map((e) => ({ ...e, text: this.storeText ? e.text : null })) });
    } catch (err) {
      // Logged without the text; the request ids say which answers went unrecorded.
      this.log.error({ requestIds: batch.map((e) => e.requestId), err: { message: (err as Error).message } }, 'audit records not written');
    }
  }
}
