-- Snapshots are stored out of line and uncompressed (src/domain/search/snapshotStore.ts):
-- server mode deflates them itself, so TOAST's compression only costs time, and embedded
-- stores them raw for PGlite's binary read, where compressing 32 MB took 1.5 s per write.
-- Prisma's schema language has no column storage; schema.prisma is unchanged by this.
ALTER TABLE "release_index_snapshot" ALTER COLUMN "data" SET STORAGE EXTERNAL;
