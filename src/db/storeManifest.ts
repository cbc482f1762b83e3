// What an embedded store held when it was last closed cleanly, readable without starting PGlite
// (seconds of WebAssembly start-up) — so `terminology releases` answers at once when no server runs.
// Trust comes from two facts, not from timing: every process that opens the store deletes the file
// as soon as it holds the data-directory lock, and the file is written after a clean close, stamped
// with the identity of PGlite's pg_control, which every later open rewrites. A store opened since
// (by any version of this program, crashed or not) therefore never matches a stale file.
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Bump when the recorded shape changes: an older file is then ignored, never misread. */
const FORMAT = 1;
const FILE = 'store-manifest.json';

/** The embedded store's directory for a configured data dir; undefined for in-memory stores. */
export function embeddedStoreRoot(dataDir: string | undefined): string | undefined {
  return dataDir && !dataDir.startsWith('memory://') ? path.resolve(dataDir) : undefined;
}

/** pg_control's identity: any open of the store (a checkpoint at start or close) changes it. */
function controlStamp(root: string): string | undefined {
  try {
    const s = statSync(path.join(root, 'pglite', 'global', 'pg_control'), { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return undefined;
  }
}

/** Called by the process that just took the store's lock: what it may change is no longer known. */
export function dropStoreManifest(root: string): void {
  rmSync(path.join(root, FILE), { force: true });
}

/** Called after the store closed cleanly (its lock released), with what it held then. */
export function writeStoreManifest(root: string, data: unknown): void {
  const stamp = controlStamp(root);
  if (!stamp) return;
  const file = path.join(root, FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify({ format: FORMAT, stamp, data }));
    renameSync(tmp, file); // all or nothing: a reader never sees half a file
  } catch {
    rmSync(tmp, { force: true }); // a read-only or full disk only costs the next command its speed
  }
}

/** The recorded data, or undefined when there is none or it may be stale (then open the store). */
export function readStoreManifest<T>(root: string): T | undefined {
  let parsed: { format?: unknown; stamp?: unknown; data?: T };
  try {
    // A process holding the lock may be changing the store right now.
    statSync(path.join(root, '.lock'));
    return undefined;
  } catch {
    /* no owner */
  }
  try {
    parsed = JSON.parse(readFileSync(path.join(root, FILE), 'utf8')) as typeof parsed;
  } catch {
    return undefined;
  }
  if (parsed.format !== FORMAT || parsed.data === undefined) return undefined;
  const stamp = controlStamp(root);
  return stamp !== undefined && parsed.stamp === stamp ? parsed.data : undefined;
}
