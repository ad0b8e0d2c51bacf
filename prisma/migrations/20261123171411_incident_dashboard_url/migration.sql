-- AlterTable
ALTER TABLE "incident_link" ADD COLUMN     "dashboard_url" TEXT;

-- AlterTable
ALTER TABLE "report_attempt" ADD COLUMN     "dashboard_url" TEXT;
