-- A write recognised by its note (update_many items, tokens without the global read scope) is
-- found by identity: its author, its channel, its time and the exact note the connector sent. The
-- note no longer ends with a reference line.
ALTER TABLE "pending_ticket_change" ADD COLUMN "write_note_digest" TEXT;
ALTER TABLE "pending_ticket_change" ADD COLUMN "write_sent_at" TIMESTAMPTZ(3);
