-- The search index of each non-primary language of a release (issue 28), persisted like the
-- release's own (release_index_snapshot): a start or another replica loads it in one read instead
-- of rebuilding it from concept_name. `variant`: which key of the names it indexes (German: 1 =
-- umlauts transliterated). Removed with its language; an import replacing the language's names
-- deletes it in the same transaction.
CREATE TABLE "release_language_index_snapshot" (
    "release_id" INTEGER NOT NULL,
    "language" TEXT NOT NULL,
    "variant" INTEGER NOT NULL,
    "format" INTEGER NOT NULL,
    "bytes" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "data" BYTEA NOT NULL,

    CONSTRAINT "release_language_index_snapshot_pkey" PRIMARY KEY ("release_id","language","variant")
);

ALTER TABLE "release_language_index_snapshot" ADD CONSTRAINT "release_language_index_snapshot_release_id_language_fkey" FOREIGN KEY ("release_id", "language") REFERENCES "release_language"("release_id", "language") ON DELETE CASCADE ON UPDATE CASCADE;

-- Stored raw and out of line, as release_index_snapshot (see 20261124150000_index_snapshot_storage).
ALTER TABLE "release_language_index_snapshot" ALTER COLUMN "data" SET STORAGE EXTERNAL;
