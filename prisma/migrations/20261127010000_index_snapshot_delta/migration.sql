-- A release's index snapshot may be a delta over another release's whole snapshot (a keyframe:
-- src/domain/releaseIndex/snapshotChain.ts) instead of whole, so a further release stores its
-- index's differences only. A delta cannot outlive its base: deleting the base row (a release
-- deleted or replaced) deletes the deltas over it, whose releases then rebuild from rows.
ALTER TABLE "release_index_snapshot" ADD COLUMN "base_release_id" INTEGER;

-- CreateIndex
CREATE INDEX "release_index_snapshot_base_release_id_idx" ON "release_index_snapshot"("base_release_id");

-- AddForeignKey
ALTER TABLE "release_index_snapshot" ADD CONSTRAINT "release_index_snapshot_base_release_id_fkey" FOREIGN KEY ("base_release_id") REFERENCES "release_index_snapshot"("release_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A language's index snapshot likewise: a delta over the same language's whole snapshot of the
-- release its primary snapshot is a delta over. No foreign key (it would share the language and
-- variant columns with the key): a delta whose base is gone or another is refused by its checksum.
ALTER TABLE "release_language_index_snapshot" ADD COLUMN "base_release_id" INTEGER;
