-- What the sidebar shows about an incident beyond the service's answer: the analyst's request of
-- the newest incident.action_required event, and the last action an agent asked for.

-- AlterTable
ALTER TABLE "incident_link" ADD COLUMN     "analyst_request" TEXT,
ADD COLUMN     "analyst_request_at" TIMESTAMPTZ(3),
ADD COLUMN     "requested_action" TEXT,
ADD COLUMN     "requested_action_at" TIMESTAMPTZ(3),
ADD COLUMN     "requested_action_status" TEXT;
