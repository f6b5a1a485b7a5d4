-- The outbox is a transit queue: the relay deletes a row once it is published (the bus keeps the history), so
-- it reads the oldest rows by primary key and the table stays small. Reading "published_at IS NULL" scanned
-- every published row's dead index entry at each pass, and the table grew without bound.
DELETE FROM "tasks"."outbox" WHERE "published_at" IS NOT NULL;

-- DropIndex
DROP INDEX "tasks"."outbox_unpublished_idx";

-- AlterTable
ALTER TABLE "tasks"."outbox" DROP COLUMN "published_at";
