-- A persisted copy of each release's in-memory index (src/domain/search/snapshot.ts):
-- loading it is one read instead of rebuilding from concept/link/path rows at start.
-- CreateTable
CREATE TABLE "release_index_snapshot" (
    "release_id" INTEGER NOT NULL,
    "format" INTEGER NOT NULL,
    "bytes" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "data" BYTEA NOT NULL,

    CONSTRAINT "release_index_snapshot_pkey" PRIMARY KEY ("release_id")
);

-- AddForeignKey
ALTER TABLE "release_index_snapshot" ADD CONSTRAINT "release_index_snapshot_release_id_fkey" FOREIGN KEY ("release_id") REFERENCES "release"("id") ON DELETE CASCADE ON UPDATE CASCADE;
