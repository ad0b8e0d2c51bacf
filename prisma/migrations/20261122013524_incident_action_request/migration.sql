-- CreateEnum
CREATE TYPE "incident_action_request_state" AS ENUM ('sending', 'sent');

-- CreateTable
CREATE TABLE "incident_action_request" (
    "account_id" UUID NOT NULL,
    "receipt_id" TEXT NOT NULL,
    "ticket_id" BIGINT NOT NULL,
    "incident_id" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "state" "incident_action_request_state" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "incident_action_request_pkey" PRIMARY KEY ("account_id","receipt_id")
);

-- CreateIndex
CREATE INDEX "incident_action_request_created_at_idx" ON "incident_action_request"("created_at");

-- AddForeignKey
ALTER TABLE "incident_action_request" ADD CONSTRAINT "incident_action_request_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
