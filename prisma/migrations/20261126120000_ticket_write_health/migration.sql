-- AlterTable
ALTER TABLE "account_health" ADD COLUMN     "ticket_write_failed_at" TIMESTAMPTZ(3),
ADD COLUMN     "ticket_write_failing_since" TIMESTAMPTZ(3),
ADD COLUMN     "ticket_write_failure_cause" TEXT,
ADD COLUMN     "ticket_write_failure_detail" TEXT,
ADD COLUMN     "ticket_write_failure_status" INTEGER;

-- CreateIndex
CREATE INDEX "pending_ticket_change_waiting_idx" ON "pending_ticket_change"("account_id", "created_at") WHERE (written_at IS NULL AND failed_reason IS NULL);
