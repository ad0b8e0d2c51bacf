-- CreateTable
CREATE TABLE "own_evidence_upload" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "incident_id" TEXT NOT NULL,
    "files" INTEGER NOT NULL,
    "echoed_at" TIMESTAMPTZ(3),
    "echo_ref" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "own_evidence_upload_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "own_evidence_upload_account_id_incident_id_created_at_idx" ON "own_evidence_upload"("account_id", "incident_id", "created_at");

-- AddForeignKey
ALTER TABLE "own_evidence_upload" ADD CONSTRAINT "own_evidence_upload_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
