-- AlterTable
ALTER TABLE "pending_ticket_change" ADD COLUMN     "write_job_id" TEXT;
