-- AlterTable: the concept's name is stored with each change (ordering and display without joins).
ALTER TABLE "release_change" ADD COLUMN "term" TEXT NOT NULL DEFAULT '';
UPDATE "release_change" rc SET "term" = coalesce(
  (SELECT c.name FROM "concept" c WHERE c.release_id = rc.to_release_id AND c.level = rc.level AND c.code = rc.code),
  (SELECT c.name FROM "concept" c WHERE c.release_id = rc.from_release_id AND c.level = rc.level AND c.code = rc.code),
  '');
ALTER TABLE "release_change" ALTER COLUMN "term" DROP DEFAULT;

-- CreateIndex
CREATE INDEX "release_change_page_idx" ON "release_change"("from_release_id", "to_release_id", "level", "change_type", "term", "code");
