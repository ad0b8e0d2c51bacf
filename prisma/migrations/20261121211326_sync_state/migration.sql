-- CreateEnum
CREATE TYPE "comment_forward_status" AS ENUM ('forwarded', 'skipped', 'failed');

-- CreateEnum
CREATE TYPE "report_attempt_state" AS ENUM ('sending', 'linked', 'duplicate', 'failed');

-- AlterTable
ALTER TABLE "incident_link" ADD COLUMN     "report_ref" TEXT;

-- CreateTable
CREATE TABLE "own_note" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "ticket_id" BIGINT NOT NULL,
    "text" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "own_note_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "posted_incident_comment" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "incident_id" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "posted_incident_comment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "forwarded_comment" (
    "account_id" UUID NOT NULL,
    "comment_id" BIGINT NOT NULL,
    "ticket_id" BIGINT NOT NULL,
    "incident_id" TEXT NOT NULL,
    "status" "comment_forward_status" NOT NULL,
    "detail" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "forwarded_comment_pkey" PRIMARY KEY ("account_id","comment_id")
);

-- CreateTable
CREATE TABLE "report_attempt" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "ticket_id" BIGINT NOT NULL,
    "mode" TEXT NOT NULL,
    "state" "report_attempt_state" NOT NULL,
    "incident_id" TEXT,
    "detail" TEXT,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "report_attempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reconciliation_entry" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "ticket_id" BIGINT NOT NULL,
    "reason" TEXT NOT NULL,
    "detail" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolved_at" TIMESTAMPTZ(3),

    CONSTRAINT "reconciliation_entry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sync_failure" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "queue" TEXT NOT NULL,
    "job_id" TEXT,
    "ticket_id" BIGINT,
    "incident_id" TEXT,
    "reason" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolved_at" TIMESTAMPTZ(3),

    CONSTRAINT "sync_failure_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "account_health" (
    "account_id" UUID NOT NULL,
    "last_zendesk_webhook_at" TIMESTAMPTZ(3),
    "last_incident_event_at" TIMESTAMPTZ(3),
    "last_webhook_test_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "account_health_pkey" PRIMARY KEY ("account_id")
);

-- CreateIndex
CREATE INDEX "own_note_account_id_ticket_id_created_at_idx" ON "own_note"("account_id", "ticket_id", "created_at");

-- CreateIndex
CREATE INDEX "own_note_created_at_idx" ON "own_note"("created_at");

-- CreateIndex
CREATE INDEX "posted_incident_comment_account_id_incident_id_created_at_idx" ON "posted_incident_comment"("account_id", "incident_id", "created_at");

-- CreateIndex
CREATE INDEX "posted_incident_comment_created_at_idx" ON "posted_incident_comment"("created_at");

-- CreateIndex
CREATE INDEX "forwarded_comment_account_id_ticket_id_idx" ON "forwarded_comment"("account_id", "ticket_id");

-- CreateIndex
CREATE UNIQUE INDEX "report_attempt_account_id_ticket_id_mode_key" ON "report_attempt"("account_id", "ticket_id", "mode");

-- CreateIndex
CREATE INDEX "reconciliation_entry_account_id_resolved_at_idx" ON "reconciliation_entry"("account_id", "resolved_at");

-- CreateIndex
CREATE UNIQUE INDEX "reconciliation_entry_account_id_ticket_id_key" ON "reconciliation_entry"("account_id", "ticket_id");

-- CreateIndex
CREATE INDEX "sync_failure_account_id_resolved_at_created_at_idx" ON "sync_failure"("account_id", "resolved_at", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "incident_link_account_id_report_ref_key" ON "incident_link"("account_id", "report_ref");

-- AddForeignKey
ALTER TABLE "own_note" ADD CONSTRAINT "own_note_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "posted_incident_comment" ADD CONSTRAINT "posted_incident_comment_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "forwarded_comment" ADD CONSTRAINT "forwarded_comment_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "report_attempt" ADD CONSTRAINT "report_attempt_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reconciliation_entry" ADD CONSTRAINT "reconciliation_entry_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sync_failure" ADD CONSTRAINT "sync_failure_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_health" ADD CONSTRAINT "account_health_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
