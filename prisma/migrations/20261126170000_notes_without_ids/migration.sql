-- Notes without machine ids: a write's reference moves to its audit metadata (a note keeps the
-- short reference line only where the audit is not read back), the takedown news each ticket has
-- been told is counted on its link, and notes follow the account's default language.
-- AlterTable
ALTER TABLE "account_configuration" ADD COLUMN     "zendesk_locale" TEXT;

-- AlterTable
ALTER TABLE "incident_link" ADD COLUMN     "noted_attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "noted_attempts_ended" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "noted_listed" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "noted_listings" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "noted_snapshot_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "report_attempt" ADD COLUMN     "echo_event_ref" TEXT;

-- AlterTable
ALTER TABLE "pending_ticket_change" ADD COLUMN     "write_ref_in_note" BOOLEAN NOT NULL DEFAULT true;
