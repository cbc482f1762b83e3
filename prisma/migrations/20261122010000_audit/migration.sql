-- CreateTable
CREATE TABLE "audit_record" (
    "id" SERIAL NOT NULL,
    "request_id" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL,
    "release" TEXT,
    "provider" TEXT NOT NULL,
    "fallback" TEXT,
    "latency_ms" INTEGER NOT NULL,
    "status" INTEGER NOT NULL,
    "api_key_id" TEXT,
    "text" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_record_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_record_created_at_idx" ON "audit_record"("created_at");

-- CreateIndex
CREATE INDEX "audit_record_request_id_idx" ON "audit_record"("request_id");
