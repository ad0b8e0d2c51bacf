-- Zendesk counts against a ticket's 30 updates per 10 minutes only the updates it applied: a request
-- that failed (5xx, no answer, 429, refused) keeps its row for the account's minute, without a ticket.
-- AlterTable
ALTER TABLE "ticket_write_log" ALTER COLUMN "ticket_id" DROP NOT NULL
