-- A ticket write put off (the account's Update Ticket budget, a 429's pause) after the incident
-- service answered resumes from what is recorded here, never calling the service again: a refused
-- report or a failed action keeps its row until its note is written, and a note that reports finished
-- work (files not sent, comments not forwarded) is kept until Zendesk takes it.

-- AlterEnum
ALTER TYPE "incident_action_request_state" ADD VALUE 'failed';

-- AlterEnum
ALTER TYPE "report_attempt_state" ADD VALUE 'refused';
ALTER TYPE "report_attempt_state" ADD VALUE 'unavailable';

-- AlterTable
ALTER TABLE "incident_action_request" ADD COLUMN     "detail" TEXT;

-- CreateTable
CREATE TABLE "owed_ticket_note" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "ticket_id" BIGINT NOT NULL,
    "text" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "owed_ticket_note_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "owed_ticket_note_account_id_ticket_id_created_at_idx" ON "owed_ticket_note"("account_id", "ticket_id", "created_at");

-- AddForeignKey
ALTER TABLE "owed_ticket_note" ADD CONSTRAINT "owed_ticket_note_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
