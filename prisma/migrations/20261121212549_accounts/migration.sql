-- CreateEnum
CREATE TYPE "credential_state" AS ENUM ('active', 'reauthorization_required');

-- CreateEnum
CREATE TYPE "credential_grant" AS ENUM ('authorization_code', 'client_credentials');

-- CreateTable
CREATE TABLE "zendesk_credential" (
    "account_id" UUID NOT NULL,
    "grant" "credential_grant" NOT NULL,
    "sealed_access_token" TEXT NOT NULL,
    "sealed_refresh_token" TEXT,
    "access_expires_at" TIMESTAMPTZ(3) NOT NULL,
    "refresh_expires_at" TIMESTAMPTZ(3),
    "scope" TEXT NOT NULL,
    "state" "credential_state" NOT NULL DEFAULT 'active',
    "last_error" TEXT,
    "last_error_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "zendesk_credential_pkey" PRIMARY KEY ("account_id")
);

-- CreateTable
CREATE TABLE "oauth_install_state" (
    "state" TEXT NOT NULL,
    "subdomain" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "consumed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_install_state_pkey" PRIMARY KEY ("state")
);

-- CreateTable
CREATE TABLE "account_configuration" (
    "account_id" UUID NOT NULL,
    "incident_api_base_url" TEXT,
    "sealed_incident_api_key" TEXT,
    "incident_client_id" TEXT,
    "incident_sub_client_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "forward_internal_notes" BOOLEAN NOT NULL DEFAULT false,
    "solve_on_takedown_success" BOOLEAN NOT NULL DEFAULT false,
    "open_tickets_for_detected_incidents" BOOLEAN NOT NULL DEFAULT true,
    "new_ticket_group_id" BIGINT,
    "threat_field_id" BIGINT,
    "incident_id_field_id" BIGINT,
    "status_field_id" BIGINT,
    "zendesk_webhook_id" TEXT,
    "sealed_zendesk_webhook_secret" TEXT,
    "sealed_sidebar_secret" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "account_configuration_pkey" PRIMARY KEY ("account_id")
);

-- CreateTable
CREATE TABLE "incident_subscription" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "client_id" TEXT NOT NULL,
    "receiver_id" TEXT NOT NULL,
    "external_id" TEXT,
    "sealed_secret" TEXT NOT NULL,
    "sealed_previous_secret" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "incident_subscription_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "oauth_install_state_expires_at_idx" ON "oauth_install_state"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "incident_subscription_receiver_id_key" ON "incident_subscription"("receiver_id");

-- CreateIndex
CREATE UNIQUE INDEX "incident_subscription_account_id_client_id_key" ON "incident_subscription"("account_id", "client_id");

-- AddForeignKey
ALTER TABLE "zendesk_credential" ADD CONSTRAINT "zendesk_credential_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_configuration" ADD CONSTRAINT "account_configuration_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "incident_subscription" ADD CONSTRAINT "incident_subscription_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
