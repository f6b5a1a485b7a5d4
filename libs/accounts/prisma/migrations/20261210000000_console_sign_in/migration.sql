-- The web console: one-time sign-in links, cookie sessions with a CSRF token, when a key was last used, and
-- keys without a daily cap (a cap cleared in the console).

-- CreateTable
CREATE TABLE "accounts"."console_links" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),

    CONSTRAINT "console_links_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "console_links_token_hash_key" ON "accounts"."console_links"("token_hash");

-- CreateIndex
CREATE INDEX "console_links_account_id_idx" ON "accounts"."console_links"("account_id");

-- AddForeignKey
ALTER TABLE "accounts"."console_links" ADD CONSTRAINT "console_links_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"."accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AlterTable
ALTER TABLE "accounts"."console_sessions" ADD COLUMN "csrf_hash" TEXT;

-- AlterTable
ALTER TABLE "accounts"."api_keys" ADD COLUMN "last_used_at" TIMESTAMPTZ(3),
ALTER COLUMN "daily_cap_e9" DROP NOT NULL;
