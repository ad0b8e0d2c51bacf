-- The Status field keeps its own order: an incident.action_required (which may only reopen the
-- ticket) no longer hides the status_changed emitted just before it.
ALTER TABLE "ticket_sync_state" ADD COLUMN "last_status_at" TIMESTAMPTZ(3);
UPDATE "ticket_sync_state" SET "last_status_at" = "last_event_at" WHERE "last_status" IS NOT NULL;
