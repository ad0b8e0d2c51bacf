-- AlterTable
ALTER TABLE "webhook_receipt" ADD COLUMN     "raw_body" BYTEA;
