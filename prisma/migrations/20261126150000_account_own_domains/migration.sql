-- The client's own domains, never offered as threats found in a ticket (the sidebar's threats).

-- AlterTable
ALTER TABLE "account_configuration" ADD COLUMN     "own_domains" TEXT[] DEFAULT ARRAY[]::TEXT[];
