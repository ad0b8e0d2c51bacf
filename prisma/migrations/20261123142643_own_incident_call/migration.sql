-- CreateTable
CREATE TABLE "own_incident_call" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "incident_id" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "own_incident_call_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "own_incident_call_account_id_incident_id_started_at_idx" ON "own_incident_call"("account_id", "incident_id", "started_at");

-- AddForeignKey
ALTER TABLE "own_incident_call" ADD CONSTRAINT "own_incident_call_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
