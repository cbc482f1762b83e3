// Closing the embedded store leaves a record of its releases (src/db/storeManifest.ts), so the
// next `terminology releases` with no server running answers without starting PGlite.
import type { Database } from '../db/client.ts';
import { embeddedStoreRoot, writeStoreManifest } from '../db/storeManifest.ts';
import { listReleases } from '../domain/releases.ts';

export async function closeStore(db: Database, dataDir: string | undefined): Promise<void> {
  const root = db.mode === 'embedded' ? embeddedStoreRoot(dataDir) : undefined;
  // Read before closing; a store that cannot answer leaves no record (the next command opens it).
  const releases = root ? await listReleases(db.prisma).catch(() => undefined) : undefined;
  await db.close();
  if (root && releases) writeStoreManifest(root, { releases });
}
