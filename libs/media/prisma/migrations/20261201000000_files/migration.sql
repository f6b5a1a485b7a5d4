-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "media";

-- CreateTable
CREATE TABLE "media"."files" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,
    "file_name" TEXT NOT NULL,
    "temp_key" TEXT,
    "object_key" TEXT,
    "sha256" TEXT,
    "width" INTEGER,
    "height" INTEGER,
    "duration_seconds" DOUBLE PRECISION,
    "refusal" TEXT,
    "refusal_params" JSONB,
    "claimed_until" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "sweep_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "committed_at" TIMESTAMPTZ(3),

    CONSTRAINT "files_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "files_account_id_idx" ON "media"."files"("account_id");

-- CreateIndex
CREATE INDEX "files_sweep_at_idx" ON "media"."files"("sweep_at");
