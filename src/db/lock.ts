// One process at a time on an embedded data directory. PGlite is single-process:
// two writers on the same files corrupt them, so a second process is refused at once.
// Like PostgreSQL's postmaster.pid: the lock file names its owner, and a lock left by
// a process that no longer exists (crash, kill -9) is taken over immediately.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

export interface DataDirLock {
  release(): Promise<void>;
}

interface Owner {
  pid: number;
  host: string;
  since: string;
  command: string;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly owner?: Owner,
  ) {
    super(
      `The embedded database in ${dir} is in use by another terminology process` +
        (owner ? ` (pid ${owner.pid} on ${owner.host}, ${owner.command}, since ${owner.since})` : '') +
        '. Stop that process first (to import into a running embedded deployment: stop, import, start), ' +
        'or use PostgreSQL (DATABASE_URL), which allows importing while serving.',
    );
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function acquireDataDirLock(dir: string): Promise<DataDirLock> {
  const file = path.join(dir, '.lock');
  const me: Owner = { pid: process.pid, host: hostname(), since: new Date().toISOString(), command: process.argv.slice(2).join(' ') || 'node' };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, JSON.stringify(me));
      closeSync(fd);
      let released = false;
      return {
        async release() {
          if (released) return;
          released = true;
          rmSync(file, { force: true });
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let owner: Owner | undefined;
      try {
        owner = JSON.parse(readFileSync(file, 'utf8')) as Owner;
      } catch {
        owner = undefined; // unreadable or half-written: treat as held, never guess
      }
      const stale = owner && owner.host === me.host && owner.pid !== process.pid && !alive(owner.pid);
      if (!stale) throw new DataDirLockedError(dir, owner);
      rmSync(file, { force: true });
    }
  }
  throw new DataDirLockedError(dir);
}
