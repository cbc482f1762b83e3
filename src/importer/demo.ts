// The open demo releases shipped in data/demo (derived from CTCAE; not MedDRA).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Database } from '../db/client.ts';
import { demoDir } from '../paths.ts';
import { importRelease, type ImportProgress, type ImportSummary } from './import.ts';

export interface DemoRelease {
  version: string;
  releaseDate: string;
  dir: string;
}

export function demoReleases(dir = demoDir): (DemoRelease & { path: string })[] {
  const list = JSON.parse(readFileSync(path.join(dir, 'releases.json'), 'utf8')) as DemoRelease[];
  return list.map((r) => ({ ...r, path: path.join(dir, r.dir) }));
}

/** Imports the demo releases, oldest first, when the store has no release at all. */
export async function ensureDemoReleases(
  db: Database,
  onProgress?: (version: string, p: ImportProgress) => void,
): Promise<ImportSummary[]> {
  if ((await db.prisma.release.count()) > 0) return [];
  const out: ImportSummary[] = [];
  for (const r of demoReleases()) {
    out.push(
      await importRelease(db, r.path, {
        version: r.version,
        releaseDate: r.releaseDate,
        source: 'demo',
        onProgress: onProgress && ((p) => onProgress(r.version, p)),
      }),
    );
  }
  return out;
}
