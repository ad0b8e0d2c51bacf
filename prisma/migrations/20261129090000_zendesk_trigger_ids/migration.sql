-- AlterTable
ALTER TABLE "account_configuration" ADD COLUMN     "zendesk_trigger_ids" BIGINT[] DEFAULT ARRAY[]::BIGINT[];
