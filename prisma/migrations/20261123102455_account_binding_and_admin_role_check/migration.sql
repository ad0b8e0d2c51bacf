-- AlterTable
ALTER TABLE "account" ADD COLUMN     "zendesk_account_id" BIGINT;

-- AlterTable
ALTER TABLE "admin_session" ADD COLUMN     "pending" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "role_checked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateIndex
CREATE UNIQUE INDEX "account_zendesk_account_id_key" ON "account"("zendesk_account_id");
