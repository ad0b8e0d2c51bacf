-- CreateTable
CREATE TABLE "pending_ticket_change" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "ticket_id" BIGINT NOT NULL,
    "incident_id" TEXT NOT NULL,
    "event_ref" TEXT NOT NULL,
    "event_name" TEXT NOT NULL,
    "event_at" TIMESTAMPTZ(3) NOT NULL,
    "entry" JSONB,
    "status_value" TEXT,
    "ticket_status" TEXT,
    "add_tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "ready_at" TIMESTAMPTZ(3) NOT NULL,
    "write_ref" TEXT,
    "written_at" TIMESTAMPTZ(3),
    "failed_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pending_ticket_change_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ticket_write_log" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "request_id" TEXT NOT NULL,
    "ticket_id" BIGINT NOT NULL,
    "sent_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ticket_write_log_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ticket_write_pause" (
    "account_id" UUID NOT NULL,
    "paused_until" TIMESTAMPTZ(3) NOT NULL,
    "rate_limited_count" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ticket_write_pause_pkey" PRIMARY KEY ("account_id")
);

-- CreateIndex
CREATE INDEX "pending_ticket_change_account_id_written_at_ready_at_idx" ON "pending_ticket_change"("account_id", "written_at", "ready_at");

-- CreateIndex
CREATE INDEX "pending_ticket_change_created_at_idx" ON "pending_ticket_change"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "pending_ticket_change_account_id_ticket_id_event_ref_key" ON "pending_ticket_change"("account_id", "ticket_id", "event_ref");

-- CreateIndex
CREATE INDEX "ticket_write_log_account_id_sent_at_idx" ON "ticket_write_log"("account_id", "sent_at");

-- CreateIndex
CREATE INDEX "ticket_write_log_account_id_ticket_id_sent_at_idx" ON "ticket_write_log"("account_id", "ticket_id", "sent_at");

-- AddForeignKey
ALTER TABLE "pending_ticket_change" ADD CONSTRAINT "pending_ticket_change_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ticket_write_log" ADD CONSTRAINT "ticket_write_log_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ticket_write_pause" ADD CONSTRAINT "ticket_write_pause_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
