-- The echo ledger: one table for what the connector sent (own notes, forwarded comments, the
-- history entries of a report, action requests, evidence uploads), so that its echo is recognised.
-- Entries are read over two days only, and the recent ones are moved so that no echo of the last two
-- days reads as news. Calls in flight (own_incident_call) are not: such a row stops counting
-- after a minute anyway. (No semicolon in a comment here: Prisma's pg adapter splits the
-- script at every one.)
-- CreateEnum
CREATE TYPE "echo_kind" AS ENUM ('ticket_note', 'incident_comment', 'report_history', 'incident_action', 'evidence_upload');

-- CreateTable
CREATE TABLE "echo_ledger" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "kind" "echo_kind" NOT NULL,
    "target" TEXT NOT NULL,
    "text" TEXT,
    "files" INTEGER,
    "sent_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settled_at" TIMESTAMPTZ(3),
    "echoed_at" TIMESTAMPTZ(3),
    "echo_ref" TEXT,

    CONSTRAINT "echo_ledger_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "echo_ledger_account_id_target_kind_sent_at_idx" ON "echo_ledger"("account_id", "target", "kind", "sent_at");

-- CreateIndex
CREATE INDEX "echo_ledger_sent_at_idx" ON "echo_ledger"("sent_at");

-- AddForeignKey
ALTER TABLE "echo_ledger" ADD CONSTRAINT "echo_ledger_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Move the recent echo records
INSERT INTO "echo_ledger" ("id", "account_id", "kind", "target", "text", "sent_at", "settled_at")
SELECT "id", "account_id", 'ticket_note', "ticket_id"::text, "text", "created_at", "created_at"
  FROM "own_note" WHERE "created_at" > CURRENT_TIMESTAMP - INTERVAL '2 days';

INSERT INTO "echo_ledger" ("id", "account_id", "kind", "target", "text", "sent_at", "settled_at")
SELECT "id", "account_id", 'incident_comment', "incident_id", "text", "created_at", "created_at"
  FROM "posted_incident_comment" WHERE "created_at" > CURRENT_TIMESTAMP - INTERVAL '2 days';

INSERT INTO "echo_ledger" ("id", "account_id", "kind", "target", "text", "sent_at", "settled_at")
SELECT "id", "account_id", 'report_history', "incident_id", "message", "created_at", "created_at"
  FROM "report_own_history" WHERE "created_at" > CURRENT_TIMESTAMP - INTERVAL '2 days';

INSERT INTO "echo_ledger" ("id", "account_id", "kind", "target", "files", "sent_at", "settled_at", "echoed_at", "echo_ref")
SELECT "id", "account_id", 'evidence_upload', "incident_id", "files", "created_at", "created_at", "echoed_at", "echo_ref"
  FROM "own_evidence_upload"
 WHERE "created_at" > CURRENT_TIMESTAMP - INTERVAL '2 days' OR "echoed_at" > CURRENT_TIMESTAMP - INTERVAL '2 days';

-- DropForeignKey
ALTER TABLE "own_note" DROP CONSTRAINT "own_note_account_id_fkey";

-- DropForeignKey
ALTER TABLE "posted_incident_comment" DROP CONSTRAINT "posted_incident_comment_account_id_fkey";

-- DropForeignKey
ALTER TABLE "report_own_history" DROP CONSTRAINT "report_own_history_account_id_fkey";

-- DropForeignKey
ALTER TABLE "own_incident_call" DROP CONSTRAINT "own_incident_call_account_id_fkey";

-- DropForeignKey
ALTER TABLE "own_evidence_upload" DROP CONSTRAINT "own_evidence_upload_account_id_fkey";

-- DropTable
DROP TABLE "own_note";

-- DropTable
DROP TABLE "posted_incident_comment";

-- DropTable
DROP TABLE "report_own_history";

-- DropTable
DROP TABLE "own_incident_call";

-- DropTable
DROP TABLE "own_evidence_upload";
