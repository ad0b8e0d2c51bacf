-- AlterTable
ALTER TABLE "account_configuration" ADD COLUMN     "incident_client_name" TEXT;
