-- CreateIndex
CREATE INDEX "sync_failure_job_id_idx" ON "sync_failure"("job_id");
