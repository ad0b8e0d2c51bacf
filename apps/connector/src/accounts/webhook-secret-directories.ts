// The receivers' view of stored webhook secrets (src/http/*-webhook.ts): opened on demand, the
// previous incident secret included while a rotation settles.
import { isUniqueViolation, querySql, type TDatabase } from '@incident-desk/db';
import { secretBinding, type SecretBox } from '../secrets';

// Receiver ids are the service's subscription ids or our own `sub_...`: opaque, but printable and
// short. Anything else (a NUL, which PostgreSQL text refuses, or a huge value) names no receiver.
const RECEIVER_ID_SHAPE = /^[\x21-\x7e]{1,200}$/;

// Every incident delivery reads it: one plain statement on the driver.
const SUBSCRIPTION_SQL = `
  SELECT account_id AS "accountId", client_id AS "clientId", sealed_secret AS "sealedSecret",
         sealed_previous_secret AS "sealedPreviousSecret"
    FROM incident_subscription
   WHERE receiver_id = $1`;

interface SubscriptionRow {
  accountId: string;
  clientId: string;
  sealedSecret: string;
  sealedPreviousSecret: string | null;
}

/** The receivers' view of incident subscriptions (http/incident-webhook.ts). */
export interface IncidentSubscriptionDirectory {
  /** The account and every secret now valid for the subscription; null when it is unknown. */
  find(subscriptionId: string): Promise<{ accountId: string; secrets: string[] } | null>;
}

/** The receivers' view of Zendesk webhooks (http/ticketing-webhook-sender.ts). */
export interface ZendeskWebhookDirectory {
  /** Every signing secret now valid for the account's Zendesk webhook; null when unknown. */
  find(accountId: string): Promise<{
    accountId: string;
    secrets: string[];
    /** Zendesk's account id the installation is bound to; null until its first delivery. */
    zendeskAccountId?: bigint | null;
  } | null>;
  /** Binds the installation to Zendesk's account id; false when bound to another one. */
  bindZendeskAccount?(accountId: string, zendeskAccountId: bigint): Promise<boolean>;
}

export function createIncidentSubscriptionDirectory(
  db: TDatabase,
  secretBox: SecretBox,
): IncidentSubscriptionDirectory {
  return {
    async find(receiverId) {
      if (!RECEIVER_ID_SHAPE.test(receiverId)) return null;
      const [row] = await querySql<SubscriptionRow>(db, SUBSCRIPTION_SQL, [receiverId]);
      if (!row) return null;
      const sealed = [row.sealedSecret, row.sealedPreviousSecret].filter(
        (value): value is string => value !== null,
      );
      return {
        accountId: row.accountId,
        // Deduplicated: a rerun of setup may store the same secret as current and previous.
        secrets: [
          ...new Set(
            await Promise.all(
              sealed.map((s) =>
                secretBox.open(
                  s,
                  secretBinding.incidentSubscriptionSecret(row.accountId, row.clientId),
                ),
              ),
            ),
          ),
        ],
      };
    },
  };
}

export function createZendeskWebhookDirectory(
  db: TDatabase,
  secretBox: SecretBox,
): ZendeskWebhookDirectory {
  return {
    async find(accountId) {
      if (!/^[0-9a-f-]{36}$/i.test(accountId)) return null;
      const row = await db.prisma.accountConfiguration.findUnique({
        where: { accountId },
        include: { account: { select: { zendeskAccountId: true } } },
      });
      if (!row?.sealedZendeskWebhookSecret) return null;
      return {
        accountId,
        zendeskAccountId: row.account.zendeskAccountId,
        secrets: [
          await secretBox.open(
            row.sealedZendeskWebhookSecret,
            secretBinding.zendeskWebhookSecret(accountId),
          ),
        ],
      };
    },
    async bindZendeskAccount(accountId, zendeskAccountId) {
      try {
        await db.prisma.account.updateMany({
          where: { id: accountId, zendeskAccountId: null },
          data: { zendeskAccountId },
        });
      } catch (error) {
        // Another installation is bound to that Zendesk account (e.g. the subdomain was renamed).
        if (isUniqueViolation(error)) return false;
        throw error;
      }
      const row = await db.prisma.account.findUnique({ where: { id: accountId } });
      return row?.zendeskAccountId === zendeskAccountId;
    },
  };
}
