-- AlterTable
ALTER TABLE "incident_link" ADD COLUMN     "threat_value" TEXT;

-- CreateIndex
CREATE INDEX "incident_link_account_id_threat_value_idx" ON "incident_link"("account_id", "threat_value");
