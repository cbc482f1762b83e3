// One process at a time on an embedded data directory. PGlite is single-process:
// two writers on the same files corrupt them, so a second process is refused at once.
import lockfile from 'proper-lockfile';

export interface DataDirLock {
  release(): Promise<void>;
}

export class DataDirLockedError extends Error {
  constructor(readonly dir: string) {
    super(
      `The embedded database in ${dir} is in use by another terminology process (a running server or import). ` +
        'Stop that process first, or use PostgreSQL (DATABASE_URL) to import while serving.',
    );
  }
}

export async function acquireDataDirLock(dir: string): Promise<DataDirLock> {
  try {
    // stale: a crashed holder stops refreshing the lock and is taken over after 10 s.
    const release = await lockfile.lock(dir, { lockfilePath: `${dir}/.lock`, stale: 10_000, update: 2_000, realpath: false });
    return { release: () => release().catch(() => {}) };
  } catch (err) {
    if ((err as { code?: string }).code === 'ELOCKED') throw new DataDirLockedError(dir);
    throw err;
  }
}
