-- Retention (apps/connector/src/retention) deletes expired rows oldest first in small batches:
-- each batch is an index range scan, not a scan of the whole table.
CREATE INDEX "own_evidence_upload_created_at_idx" ON "own_evidence_upload"("created_at");
CREATE INDEX "sync_failure_resolved_at_idx" ON "sync_failure"("resolved_at");
