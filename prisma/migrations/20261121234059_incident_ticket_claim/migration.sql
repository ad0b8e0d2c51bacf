-- CreateTable
CREATE TABLE "incident_ticket_claim" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "incident_id" TEXT NOT NULL,
    "holder" UUID NOT NULL,
    "claimed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "incident_ticket_claim_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "incident_ticket_claim_account_id_incident_id_key" ON "incident_ticket_claim"("account_id", "incident_id");

-- AddForeignKey
ALTER TABLE "incident_ticket_claim" ADD CONSTRAINT "incident_ticket_claim_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Claims held as negative placeholder ticket ids in incident_link (the former scheme) move here;
-- from now on incident_link holds real ticket ids only.
INSERT INTO "incident_ticket_claim" ("id", "account_id", "incident_id", "holder", "claimed_at")
SELECT gen_random_uuid(), "account_id", "incident_id", gen_random_uuid(), "updated_at"
FROM "incident_link" WHERE "ticket_id" <= 0
ON CONFLICT DO NOTHING;
DELETE FROM "incident_link" WHERE "ticket_id" <= 0;
ALTER TABLE "incident_link" ADD CONSTRAINT "incident_link_ticket_id_positive" CHECK ("ticket_id" > 0);
