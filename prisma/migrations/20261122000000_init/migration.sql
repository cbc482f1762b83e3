-- Trigram matching for typo-tolerant and substring search.
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateEnum
CREATE TYPE "Level" AS ENUM ('SOC', 'HLGT', 'HLT', 'PT', 'LLT');

-- CreateEnum
CREATE TYPE "ChangeType" AS ENUM ('added', 'updated', 'retired');

-- CreateTable
CREATE TABLE "release" (
    "id" SERIAL NOT NULL,
    "version" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "release_date" DATE,
    "ordinal" INTEGER NOT NULL,
    "imported_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "source" TEXT,

    CONSTRAINT "release_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "concept" (
    "release_id" INTEGER NOT NULL,
    "level" "Level" NOT NULL,
    "code" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "name_norm" TEXT NOT NULL,
    "current" BOOLEAN NOT NULL DEFAULT true,
    "pt_code" INTEGER,
    "primary_soc_code" INTEGER,
    "soc_abbrev" TEXT,
    "intl_order" INTEGER,

    CONSTRAINT "concept_pkey" PRIMARY KEY ("release_id","level","code")
);

-- CreateTable
CREATE TABLE "hierarchy_link" (
    "release_id" INTEGER NOT NULL,
    "parent_level" "Level" NOT NULL,
    "parent_code" INTEGER NOT NULL,
    "child_level" "Level" NOT NULL,
    "child_code" INTEGER NOT NULL,
    "is_primary" BOOLEAN NOT NULL,

    CONSTRAINT "hierarchy_link_pkey" PRIMARY KEY ("release_id","parent_level","parent_code","child_level","child_code")
);

-- CreateTable
CREATE TABLE "hierarchy_path" (
    "release_id" INTEGER NOT NULL,
    "pt_code" INTEGER NOT NULL,
    "hlt_code" INTEGER NOT NULL,
    "hlgt_code" INTEGER NOT NULL,
    "soc_code" INTEGER NOT NULL,
    "is_primary" BOOLEAN NOT NULL,

    CONSTRAINT "hierarchy_path_pkey" PRIMARY KEY ("release_id","pt_code","hlt_code","hlgt_code","soc_code")
);

-- CreateTable
CREATE TABLE "grade_definition" (
    "release_id" INTEGER NOT NULL,
    "code" INTEGER NOT NULL,
    "grade" INTEGER NOT NULL,
    "definition" TEXT NOT NULL,

    CONSTRAINT "grade_definition_pkey" PRIMARY KEY ("release_id","code","grade")
);

-- CreateTable
CREATE TABLE "smq" (
    "release_id" INTEGER NOT NULL,
    "code" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "level" INTEGER NOT NULL,
    "description" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "note" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "algorithm" TEXT NOT NULL,

    CONSTRAINT "smq_pkey" PRIMARY KEY ("release_id","code")
);

-- CreateTable
CREATE TABLE "smq_term" (
    "release_id" INTEGER NOT NULL,
    "smq_code" INTEGER NOT NULL,
    "term_code" INTEGER NOT NULL,
    "term_level" INTEGER NOT NULL,
    "term_scope" INTEGER NOT NULL,
    "term_category" TEXT NOT NULL,
    "term_weight" INTEGER NOT NULL,
    "term_status" TEXT NOT NULL,
    "term_addition_version" TEXT NOT NULL,
    "term_last_modified_version" TEXT NOT NULL,

    CONSTRAINT "smq_term_pkey" PRIMARY KEY ("release_id","smq_code","term_code")
);

-- CreateTable
CREATE TABLE "term_history" (
    "id" SERIAL NOT NULL,
    "release_id" INTEGER NOT NULL,
    "term_code" INTEGER NOT NULL,
    "term_name" TEXT NOT NULL,
    "term_addition_version" TEXT NOT NULL,
    "term_type" TEXT NOT NULL,
    "llt_currency" TEXT NOT NULL,
    "action" TEXT NOT NULL,

    CONSTRAINT "term_history_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "change_set" (
    "from_release_id" INTEGER NOT NULL,
    "to_release_id" INTEGER NOT NULL,
    "computed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "added" INTEGER NOT NULL,
    "updated" INTEGER NOT NULL,
    "retired" INTEGER NOT NULL,

    CONSTRAINT "change_set_pkey" PRIMARY KEY ("from_release_id","to_release_id")
);

-- CreateTable
CREATE TABLE "release_change" (
    "from_release_id" INTEGER NOT NULL,
    "to_release_id" INTEGER NOT NULL,
    "level" "Level" NOT NULL,
    "code" INTEGER NOT NULL,
    "change_type" "ChangeType" NOT NULL,
    "details" TEXT NOT NULL,
    "previous_term" TEXT,
    "metadata" JSONB NOT NULL,

    CONSTRAINT "release_change_pkey" PRIMARY KEY ("from_release_id","to_release_id","level","code")
);

-- CreateTable
CREATE TABLE "api_key" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_key_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "release_version_key" ON "release"("version");

-- CreateIndex
CREATE UNIQUE INDEX "release_ordinal_key" ON "release"("ordinal");

-- CreateIndex
CREATE INDEX "concept_release_id_code_idx" ON "concept"("release_id", "code");

-- CreateIndex
CREATE INDEX "concept_release_id_level_name_norm_idx" ON "concept"("release_id", "level", "name_norm");

-- CreateIndex
CREATE INDEX "concept_release_id_pt_code_idx" ON "concept"("release_id", "pt_code");

-- CreateIndex
CREATE INDEX "concept_name_norm_trgm_idx" ON "concept" USING GIN ("name_norm" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "hierarchy_link_release_id_child_level_child_code_idx" ON "hierarchy_link"("release_id", "child_level", "child_code");

-- CreateIndex
CREATE INDEX "hierarchy_path_release_id_soc_code_idx" ON "hierarchy_path"("release_id", "soc_code");

-- CreateIndex
CREATE INDEX "hierarchy_path_release_id_hlgt_code_idx" ON "hierarchy_path"("release_id", "hlgt_code");

-- CreateIndex
CREATE INDEX "hierarchy_path_release_id_hlt_code_idx" ON "hierarchy_path"("release_id", "hlt_code");

-- CreateIndex
CREATE INDEX "smq_term_release_id_term_code_idx" ON "smq_term"("release_id", "term_code");

-- CreateIndex
CREATE INDEX "term_history_release_id_term_code_idx" ON "term_history"("release_id", "term_code");

-- CreateIndex
CREATE INDEX "release_change_to_release_id_code_idx" ON "release_change"("to_release_id", "code");

-- CreateIndex
CREATE UNIQUE INDEX "api_key_hash_key" ON "api_key"("hash");

-- AddForeignKey
ALTER TABLE "concept" ADD CONSTRAINT "concept_release_id_fkey" FOREIGN KEY ("release_id") REFERENCES "release"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "hierarchy_link" ADD CONSTRAINT "hierarchy_link_release_id_fkey" FOREIGN KEY ("release_id") REFERENCES "release"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "hierarchy_path" ADD CONSTRAINT "hierarchy_path_release_id_fkey" FOREIGN KEY ("release_id") REFERENCES "release"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "grade_definition" ADD CONSTRAINT "grade_definition_release_id_fkey" FOREIGN KEY ("release_id") REFERENCES "release"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "smq" ADD CONSTRAINT "smq_release_id_fkey" FOREIGN KEY ("release_id") REFERENCES "release"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "smq_term" ADD CONSTRAINT "smq_term_release_id_fkey" FOREIGN KEY ("release_id") REFERENCES "release"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "term_history" ADD CONSTRAINT "term_history_release_id_fkey" FOREIGN KEY ("release_id") REFERENCES "release"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "change_set" ADD CONSTRAINT "change_set_from_release_id_fkey" FOREIGN KEY ("from_release_id") REFERENCES "release"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "change_set" ADD CONSTRAINT "change_set_to_release_id_fkey" FOREIGN KEY ("to_release_id") REFERENCES "release"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "release_change" ADD CONSTRAINT "release_change_from_release_id_fkey" FOREIGN KEY ("from_release_id") REFERENCES "release"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "release_change" ADD CONSTRAINT "release_change_to_release_id_fkey" FOREIGN KEY ("to_release_id") REFERENCES "release"("id") ON DELETE CASCADE ON UPDATE CASCADE;
