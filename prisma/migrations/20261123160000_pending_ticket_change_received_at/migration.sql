-- AlterTable
ALTER TABLE "pending_ticket_change" ADD COLUMN     "received_at" TIMESTAMPTZ(3);
