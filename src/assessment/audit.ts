// Audit trail of narrative requests: who (key id), what (endpoint, release, provider,
// fallback), how long, with which outcome. The narrative is kept only on opt-in.
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
  constructor(
    private readonly prisma: Pick<PrismaClient, 'auditRecord'>,
    private readonly storeText: boolean,
    private readonly log: Logger,
  ) {}

  /** Never fails the request it records: an audit write error is logged (without the text). */
  async record(e: AuditEntry): Promise<void> {
    try {
      await this.prisma.auditRecord.create({
        data: { ...e, text: this.storeText ? e.text : null },
      });
    } catch (err) {
      this.log.error({ requestId: e.requestId, err: { message: (err as Error).message } }, 'audit record not written');
    }
  }
}
