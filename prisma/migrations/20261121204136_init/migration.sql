-- CreateEnum
CREATE TYPE "webhook_source" AS ENUM ('zendesk', 'incident');

-- CreateTable
CREATE TABLE "account" (
    "id" UUID NOT NULL,
    "zendesk_subdomain" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "incident_link" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "incident_id" TEXT NOT NULL,
    "ticket_id" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "incident_link_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_receipt" (
    "id" UUID NOT NULL,
    "account_id" UUID,
    "source" "webhook_source" NOT NULL,
    "dedupe_key" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "payload" JSONB NOT NULL,

    CONSTRAINT "webhook_receipt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ticket_sync_state" (
    "account_id" UUID NOT NULL,
    "ticket_id" BIGINT NOT NULL,
    "last_event_at" TIMESTAMPTZ(3) NOT NULL,
    "last_status" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ticket_sync_state_pkey" PRIMARY KEY ("account_id","ticket_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "account_zendesk_subdomain_key" ON "account"("zendesk_subdomain");

-- CreateIndex
CREATE UNIQUE INDEX "incident_link_account_id_incident_id_key" ON "incident_link"("account_id", "incident_id");

-- CreateIndex
CREATE UNIQUE INDEX "incident_link_account_id_ticket_id_key" ON "incident_link"("account_id", "ticket_id");

-- CreateIndex
CREATE INDEX "webhook_receipt_account_id_received_at_idx" ON "webhook_receipt"("account_id", "received_at");

-- CreateIndex
CREATE INDEX "webhook_receipt_received_at_idx" ON "webhook_receipt"("received_at");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_receipt_source_dedupe_key_key" ON "webhook_receipt"("source", "dedupe_key");

-- AddForeignKey
ALTER TABLE "incident_link" ADD CONSTRAINT "incident_link_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_receipt" ADD CONSTRAINT "webhook_receipt_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ticket_sync_state" ADD CONSTRAINT "ticket_sync_state_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
