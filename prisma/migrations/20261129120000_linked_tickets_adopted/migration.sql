-- AlterTable
ALTER TABLE "account" ADD COLUMN "linked_tickets_adopted_at" TIMESTAMPTZ(3);
