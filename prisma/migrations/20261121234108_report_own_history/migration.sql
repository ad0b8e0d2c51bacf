-- CreateTable
CREATE TABLE "report_own_history" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "incident_id" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "report_own_history_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "report_own_history_created_at_idx" ON "report_own_history"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "report_own_history_account_id_incident_id_message_key" ON "report_own_history"("account_id", "incident_id", "message");

-- AddForeignKey
ALTER TABLE "report_own_history" ADD CONSTRAINT "report_own_history_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
