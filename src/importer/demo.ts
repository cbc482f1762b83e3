// The open demo releases shipped in data/demo (derived from CTCAE; not MedDRA).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Database } from '../db/client.ts';
import { demoDir } from '../paths.ts';
import { importRelease, type ImportProgress, type ImportSummary } from './import.ts';
import { DEMO_IMPORT_LOCK } from '../db/advisoryLocks.ts';

export interface DemoRelease {
  version: string;
  releaseDate: string;
  dir: string;
  /** The release's other languages (issue 28): each a folder of the same version, imported after the primary (English) one. */
  languages?: { language: string; dir: string }[];
}

export function demoReleases(dir = demoDir): (DemoRelease & { path: string; languagePaths: { language: string; path: string }[] })[] {
  const list = JSON.parse(readFileSync(path.join(dir, 'releases.json'), 'utf8')) as DemoRelease[];
  return list.map((r) => ({ ...r, path: path.join(dir, r.dir), languagePaths: (r.languages ?? []).map((l) => ({ language: l.language, path: path.join(dir, l.dir) })) }));
}

/**
 * Imports the demo releases, oldest first, when the store has no release at all. Replicas
 * starting together on one empty PostgreSQL database take turns (an advisory lock): the first
 * imports, the others wait for it and then find the releases there. `onStart` is called only
 * when this process is about to import.
 */
export async function ensureDemoReleases(
  db: Database,
  onProgress?: (version: string, p: ImportProgress) => void,
  onStart?: (releases: DemoRelease[]) => void,
): Promise<ImportSummary[]> {
  // Cheap check first: a store with releases (every start but the first) takes no lock.
  if ((await db.prisma.release.count()) > 0) return [];
  return db.withAdvisoryLock(DEMO_IMPORT_LOCK, async () => {
    if ((await db.prisma.release.count()) > 0) return [];
    const list = demoReleases();
    onStart?.(list);
    const out: ImportSummary[] = [];
    for (const r of list) {
      out.push(
        await importRelease(db, r.path, {
          version: r.version,
          releaseDate: r.releaseDate,
          source: 'demo',
          onProgress: onProgress && ((p) => onProgress(r.version, p)),
        }),
      );
      for (const l of r.languagePaths) {
        out.push(
          await importRelease(db, l.path, {
            version: r.version,
            language: l.language,
            source: 'demo',
            onProgress: onProgress && ((p) => onProgress(`${r.version} (${l.language})`, p)),
          }),
        );
      }
    }
    return out;
  });
}
