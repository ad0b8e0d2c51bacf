-- The account writer no longer holds a session advisory lock on a pooled connection: a lease row,
-- renewed at each short pass, says which instance writes an account. Instances beat a heartbeat, and
-- changes in flight name the instance that sent them, so the leases of a dead one are void at once.
-- AlterTable
ALTER TABLE "pending_ticket_change" ADD COLUMN     "write_holder" TEXT;

-- CreateTable
CREATE TABLE "ticket_writer_lease" (
    "account_id" UUID NOT NULL,
    "holder" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ticket_writer_lease_pkey" PRIMARY KEY ("account_id")
);

-- CreateTable
CREATE TABLE "connector_instance" (
    "id" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "heartbeat_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "connector_instance_pkey" PRIMARY KEY ("id")
);

-- AddForeignKey
ALTER TABLE "ticket_writer_lease" ADD CONSTRAINT "ticket_writer_lease_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
