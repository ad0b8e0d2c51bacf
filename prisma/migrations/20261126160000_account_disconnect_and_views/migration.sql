-- AlterTable
ALTER TABLE "account" ADD COLUMN     "app_installation_seen_at" TIMESTAMPTZ(3),
ADD COLUMN     "disconnect_detail" TEXT,
ADD COLUMN     "disconnect_reason" TEXT,
ADD COLUMN     "disconnected_at" TIMESTAMPTZ(3),
ADD COLUMN     "installation_checked_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "account_configuration" ADD COLUMN     "create_zendesk_views" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "zendesk_view_ids" BIGINT[] DEFAULT ARRAY[]::BIGINT[];

-- AlterTable
ALTER TABLE "zendesk_credential" ADD COLUMN     "removal_token_expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "sealed_removal_token" TEXT;
