-- AlterTable
ALTER TABLE "account_configuration" DROP COLUMN "sealed_sidebar_secret";

-- CreateTable
CREATE TABLE "sidebar_session" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "installation_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "cap_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sidebar_session_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "sidebar_session_token_hash_key" ON "sidebar_session"("token_hash");

-- CreateIndex
CREATE INDEX "sidebar_session_account_id_idx" ON "sidebar_session"("account_id");

-- CreateIndex
CREATE INDEX "sidebar_session_expires_at_idx" ON "sidebar_session"("expires_at");

-- AddForeignKey
ALTER TABLE "sidebar_session" ADD CONSTRAINT "sidebar_session_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
