-- AlterTable
ALTER TABLE "account_configuration" ADD COLUMN     "setup_finished_at" TIMESTAMPTZ(3),
ADD COLUMN     "setup_report" JSONB,
ADD COLUMN     "setup_requested_at" TIMESTAMPTZ(3),
ADD COLUMN     "setup_state" TEXT NOT NULL DEFAULT 'never_run';

-- AlterTable
ALTER TABLE "oauth_install_state" ADD COLUMN     "purpose" TEXT NOT NULL DEFAULT 'install';

-- AlterTable
ALTER TABLE "zendesk_credential" ADD COLUMN     "client_id" TEXT;

-- CreateTable
CREATE TABLE "admin_session" (
    "token_hash" TEXT NOT NULL,
    "account_id" UUID NOT NULL,
    "zendesk_user_id" BIGINT NOT NULL,
    "user_name" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "admin_session_pkey" PRIMARY KEY ("token_hash")
);

-- CreateIndex
CREATE INDEX "admin_session_account_id_idx" ON "admin_session"("account_id");

-- CreateIndex
CREATE INDEX "admin_session_expires_at_idx" ON "admin_session"("expires_at");

-- AddForeignKey
ALTER TABLE "admin_session" ADD CONSTRAINT "admin_session_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
