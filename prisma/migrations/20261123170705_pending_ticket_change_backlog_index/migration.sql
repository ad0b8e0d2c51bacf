-- CreateIndex
CREATE INDEX "pending_ticket_change_written_at_failed_reason_created_at_idx" ON "pending_ticket_change"("written_at", "failed_reason", "created_at");
