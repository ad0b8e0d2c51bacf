-- AlterTable
ALTER TABLE "incident_subscription" ADD COLUMN     "last_event_at" TIMESTAMPTZ(3),
ADD COLUMN     "last_test_at" TIMESTAMPTZ(3);
