-- CreateTable
CREATE TABLE "assets"."assets" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "favorite" BOOLEAN NOT NULL DEFAULT false,
    "collection_id" TEXT,
    "file_id" TEXT NOT NULL,
    "object_key" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "bytes" BIGINT NOT NULL,
    "created_by_key_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "assets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "assets"."idempotency_records" (
    "account_id" TEXT NOT NULL,
    "idem_key" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "asset_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("account_id", "idem_key")
);

-- CreateTable
CREATE TABLE "assets"."account_limits" (
    "account_id" TEXT NOT NULL,
    "plan" TEXT NOT NULL,
    "bytes_limit" BIGINT,
    "count_limit" INTEGER,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "account_limits_pkey" PRIMARY KEY ("account_id")
);

-- CreateTable
CREATE TABLE "assets"."entities" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "images" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "entities_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "assets_account_id_created_at_id_idx" ON "assets"."assets"("account_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "assets_account_id_file_id_idx" ON "assets"."assets"("account_id", "file_id");

-- CreateIndex
CREATE INDEX "entities_account_id_created_at_id_idx" ON "assets"."entities"("account_id", "created_at", "id");
