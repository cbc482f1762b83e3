-- Multilingual releases (issue 28): the languages a release hosts, position 0 = primary (the first
-- imported; its names stay in concept.name and smq.name), and the names of every other language,
-- keyed like concepts so a later shared store across releases (issue 32) can key them the same way.
CREATE TABLE "release_language" (
    "release_id" INTEGER NOT NULL,
    "language" TEXT NOT NULL,
    "msso_name" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "source" TEXT,
    "imported_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "release_language_pkey" PRIMARY KEY ("release_id","language")
);

CREATE UNIQUE INDEX "release_language_release_id_position_key" ON "release_language"("release_id", "position");

ALTER TABLE "release_language" ADD CONSTRAINT "release_language_release_id_fkey" FOREIGN KEY ("release_id") REFERENCES "release"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "concept_name" (
    "release_id" INTEGER NOT NULL,
    "language" TEXT NOT NULL,
    "level" "Level" NOT NULL,
    "code" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "name_norm" TEXT NOT NULL,

    CONSTRAINT "concept_name_pkey" PRIMARY KEY ("release_id","language","level","code")
);

CREATE INDEX "concept_name_release_id_language_level_name_norm_idx" ON "concept_name"("release_id", "language", "level", "name_norm");

ALTER TABLE "concept_name" ADD CONSTRAINT "concept_name_release_id_language_fkey" FOREIGN KEY ("release_id", "language") REFERENCES "release_language"("release_id", "language") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "smq_name" (
    "release_id" INTEGER NOT NULL,
    "language" TEXT NOT NULL,
    "code" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,

    CONSTRAINT "smq_name_pkey" PRIMARY KEY ("release_id","language","code")
);

ALTER TABLE "smq_name" ADD CONSTRAINT "smq_name_release_id_language_fkey" FOREIGN KEY ("release_id", "language") REFERENCES "release_language"("release_id", "language") ON DELETE CASCADE ON UPDATE CASCADE;

-- Existing stores: every release hosts the one language it was imported in.
INSERT INTO "release_language" ("release_id", "language", "msso_name", "position", "source", "imported_at")
SELECT r.id,
       CASE lower(trim(r.language))
         WHEN 'english' THEN 'en' WHEN 'japanese' THEN 'ja' WHEN 'german' THEN 'de' WHEN 'french' THEN 'fr'
         WHEN 'spanish' THEN 'es' WHEN 'italian' THEN 'it' WHEN 'portuguese' THEN 'pt'
         WHEN 'brazilian portuguese' THEN 'pt-BR' WHEN 'portuguese-brazilian' THEN 'pt-BR' WHEN 'dutch' THEN 'nl'
         WHEN 'czech' THEN 'cs' WHEN 'hungarian' THEN 'hu' WHEN 'chinese' THEN 'zh' WHEN 'korean' THEN 'ko'
         WHEN 'russian' THEN 'ru' WHEN 'greek' THEN 'el' WHEN 'swedish' THEN 'sv' WHEN 'danish' THEN 'da'
         WHEN 'polish' THEN 'pl' WHEN 'latvian' THEN 'lv' WHEN 'lithuanian' THEN 'lt' WHEN 'estonian' THEN 'et'
         WHEN 'finnish' THEN 'fi' WHEN 'norwegian' THEN 'no' WHEN 'croatian' THEN 'hr' WHEN 'slovak' THEN 'sk'
         WHEN 'slovenian' THEN 'sl' WHEN 'bulgarian' THEN 'bg' WHEN 'romanian' THEN 'ro' WHEN 'arabic' THEN 'ar'
         WHEN 'persian' THEN 'fa' WHEN 'ukrainian' THEN 'uk' WHEN 'latin american spanish' THEN 'es-419'
         ELSE 'und'
       END,
       r.language, 0, r.source, r.imported_at
FROM "release" r;
