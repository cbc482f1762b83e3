// `terminology impact <file.csv> --from A --to B`: the same use case as POST /impact, run
// locally (no API key: the operator already holds the database). Reads the CSV as a
// stream, writes the report to stdout (CSV or JSON) and progress to stderr.
import type { Readable } from 'node:stream';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { compose } from '../compose.ts';
import { createLogger } from '../logger.ts';
import { createScope } from '../services/scope.ts';
import { analyseImpact, impactRowsOf } from '../services/impact.ts';
import { MAX_IMPACT_ROWS } from '../services/limits.ts';
import { impactCsv, parseCodedRowsCsv } from '../domain/impact/csv.ts';

export interface ImpactCliOptions {
  from: string;
  to: string;
  format: 'csv' | 'json';
  validateOnly: boolean;
  impactedOnly: boolean;
  /** BCP 47 tag of the names (default: the target's primary language). */
  language?: string | undefined;
}

/** Progress lines on stderr for files this large. */
const PROGRESS_FROM_ROWS = 10_000;

export interface ImpactIo {
  out(s: string): Promise<void> | void;
  err(s: string): void;
}

export async function runImpact(config: Config, db: Database, input: Readable, o: ImpactCliOptions, io: ImpactIo): Promise<void> {
  const write = async (s: string) => io.out(s);
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  // The coding engine's worker threads are not needed here.
  const composed = compose({ ...config, nlp: { ...config.nlp, workers: 0 } }, db, log);
  try {
    const scope = createScope(composed.services, { requestId: 'cli', headerVersion: undefined, apiKeyId: 'local' });
    const parsed = await parseCodedRowsCsv(input, MAX_IMPACT_ROWS);
    const large = parsed.rows.length >= PROGRESS_FROM_ROWS;
    if (large) io.err(`impact: ${parsed.rows.length} rows read\n`);
    let lastDecile = -1;
    const report = await analyseImpact(
      scope,
      { from: o.from, to: o.to, rowsData: parsed.rows, validateOnly: o.validateOnly, language: o.language },
      {
        onProgress: (done, total) => {
          const decile = total ? Math.floor((done / total) * 10) : 10;
          if (!large || decile === lastDecile) return;
          lastDecile = decile;
          io.err(`impact: ${done}/${total} rows analysed\n`);
        },
      },
    );
    const csvErrors = parsed.problems.map((p) => ({ rowId: p.rowId, position: p.position, line: p.line, field: p.field, reason: p.reason }));
    const errors = [...report.errors, ...csvErrors].sort((a, b) => (a.line ?? a.position) - (b.line ?? b.position));
    const summary = { ...report.summary, rowsUploaded: report.summary.rowsUploaded + csvErrors.length, rowsInvalid: report.summary.rowsInvalid + csvErrors.length };
    if (o.format === 'csv') {
      for (const chunk of impactCsv({ errors, rows: report.rows })) await write(chunk);
    } else {
      // The document POST /impact answers.
      const body = { from: report.from.version, to: report.to.version, language: report.language, validateOnly: report.validateOnly, summary, errors, rows: impactRowsOf(report, o.impactedOnly) };
      await write(`${JSON.stringify(body, null, 2)}\n`);
    }
    io.err(
      `impact ${report.from.version} → ${report.to.version}: ${summary.rowsUploaded} rows, ${summary.rowsValid} valid, ${summary.rowsInvalid} invalid, ${summary.rowsImpacted} impacted (${summary.impactedPercent}%)\n`,
    );
  } finally {
    await composed.close();
  }
}
