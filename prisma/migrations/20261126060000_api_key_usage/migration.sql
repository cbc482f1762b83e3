-- Per-key usage by endpoint family (src/domain/apiKeyUsage.ts): counts and last use, upserted in batches.
CREATE TABLE "api_key_usage" (
    "api_key_id" TEXT NOT NULL,
    "family" TEXT NOT NULL,
    "count" BIGINT NOT NULL,
    "last_used_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "api_key_usage_pkey" PRIMARY KEY ("api_key_id","family")
);

ALTER TABLE "api_key_usage" ADD CONSTRAINT "api_key_usage_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_key"("id") ON DELETE CASCADE ON UPDATE CASCADE;
