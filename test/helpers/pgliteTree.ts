// A store template's data directory held in a worker's memory, written straight into each new
// in-memory PGlite. PGlite's own `loadDataDir` reads the dumpDataDir() archive through Node 20's
// Blob stream, cuts every file out of it, and for each of the ~1,100 files looks every parent
// directory up anew: about half of an in-memory store's start (docs/testing.md: 0.77-1.04 ->
// 0.47-0.59 s of CPU on a loaded host). Here the archive is parsed once per worker and a start
// only makes the directories and copies the files' bytes (each store still gets copies of its
// own: PostgreSQL writes its files in place).
import { MemoryFS } from '@electric-sql/pglite';

/** PGlite's data directory inside its Emscripten file system. */
const PGDATA = '/pglite/data';

export interface DataDirTree {
  /** Parents before children. */
  dirs: string[];
  /** Views into the archive (plain Uint8Arrays: writeFile copies them). */
  files: { path: string; data: Uint8Array }[];
}

/** A dumpDataDir('none') archive (ustar: regular files and directories only) as a tree under PGDATA. */
export function parseDataDirTar(archive: Uint8Array): DataDirTree {
  // A plain Uint8Array even when given a Buffer: MEMFS keeps `data.slice()` as the new file's bytes,
  // which copies a Uint8Array but is a view of a Buffer, so every store would write into the archive
  // (test/db/template-copies.test.ts).
  const tar = new Uint8Array(archive.buffer, archive.byteOffset, archive.byteLength);
  const text = (at: number, length: number) => {
    let end = at;
    while (end < at + length && tar[end] !== 0) end++;
    return Buffer.from(tar.buffer, tar.byteOffset + at, end - at).toString('utf8');
  };
  const dirs = new Set<string>();
  const files: DataDirTree['files'] = [];
  for (let at = 0; at + 512 <= tar.length && tar[at] !== 0; ) {
    const prefix = text(at + 345, 155);
    const name = `${prefix ? `${prefix}/` : ''}${text(at, 100)}`;
    const size = parseInt(text(at + 124, 12).trim() || '0', 8);
    const type = tar[at + 156];
    at += 512;
    const full = `${PGDATA}/${name.replace(/^\/+|\/+$/g, '')}`;
    const parts = full.split('/');
    for (let i = 2; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
    if (type === 0x35 /* '5' */) dirs.add(full);
    else if (type === 0x30 /* '0' */ || type === 0) files.push({ path: full, data: tar.subarray(at, at + size) });
    else throw new Error(`parseDataDirTar: ${full} is of tar type ${String.fromCharCode(type!)}; only files and directories are expected in a PGlite data directory`);
    at += Math.ceil(size / 512) * 512;
  }
  return { dirs: [...dirs].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b)), files };
}

/** An in-memory file system that starts holding the tree's cluster (PGlite then resumes it, as from a data directory). */
export class TreeFS extends MemoryFS {
  constructor(private readonly tree: DataDirTree) {
    super();
  }

  override async initialSyncFs(): Promise<void> {
    const fs = this.pg!.Module.FS;
    for (const dir of this.tree.dirs) if (!fs.analyzePath(dir).exists) fs.mkdir(dir);
    for (const file of this.tree.files) fs.writeFile(file.path, file.data);
  }
}
