-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "accounts";

-- CreateTable
CREATE TABLE "accounts"."accounts" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "group_name" TEXT NOT NULL DEFAULT 'default',
    "language" TEXT,
    "signing_secret" TEXT,
    "signing_secret_rotated_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "accounts"."account_groups" (
    "name" TEXT NOT NULL,
    "multiplier_e9" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "account_groups_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "accounts"."api_keys" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "daily_cap_e9" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "accounts"."console_sessions" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "console_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "accounts"."admin_tokens" (
    "id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "admin_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "accounts"."bootstrap" (
    "id" INTEGER NOT NULL,
    "account_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bootstrap_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "api_keys_account_id_idx" ON "accounts"."api_keys"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "console_sessions_token_hash_key" ON "accounts"."console_sessions"("token_hash");

-- CreateIndex
CREATE INDEX "console_sessions_account_id_idx" ON "accounts"."console_sessions"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "admin_tokens_token_hash_key" ON "accounts"."admin_tokens"("token_hash");

-- AddForeignKey
ALTER TABLE "accounts"."api_keys" ADD CONSTRAINT "api_keys_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"."accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "accounts"."console_sessions" ADD CONSTRAINT "console_sessions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"."accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Seed: the default group every new account joins (multiplier 1).
INSERT INTO "accounts"."account_groups" ("name", "multiplier_e9") VALUES ('default', 1000000000);
