// Per-account configuration: incident service access (key sealed), the settings of
// AccountSettings, and what setup produced (field ids, sealed webhook secrets). Every function
// takes the account id; nothing here reads across accounts.
import type { TDatabase } from '@incident-desk/db';
import { z } from 'zod';
import type { SecretBox } from '../secrets/secret-box';
import type { SetupExisting, SetupResult } from '../setup/setup-result';
import type { AccountSettings } from './account-context';
import { secretBinding } from '../secrets/secret-bindings';

export const DEFAULT_ACCOUNT_SETTINGS: AccountSettings = {
  forwardInternalNotes: false,
  solveOnTakedownSuccess: false,
  openTicketsForDetectedIncidents: true,
  newTicketGroupId: null,
};

export const ZAccountSettingsUpdate = z
  .object({
    forwardInternalNotes: z.boolean(),
    solveOnTakedownSuccess: z.boolean(),
    openTicketsForDetectedIncidents: z.boolean(),
    newTicketGroupId: z.number().int().positive().nullable(),
  })
  .partial()
  .strict();
export type TAccountSettingsUpdate = z.infer<typeof ZAccountSettingsUpdate>;

export const ZIncidentConnection = z.object({
  baseUrl: z.url({ protocol: /^https?$/ }),
  apiKey: z.string().min(1),
  clientId: z.string().min(1),
  subClientIds: z.array(z.string().min(1)).default([]),
});
export type TIncidentConnection = z.input<typeof ZIncidentConnection>;

/** Creates the configuration row with defaults when the account has none. */
export async function ensureAccountConfiguration(db: TDatabase, accountId: string): Promise<void> {
  await db.prisma.accountConfiguration.upsert({
    where: { accountId },
    create: { accountId },
    update: {},
  });
}

export async function saveIncidentConnection(
  db: TDatabase,
  secretBox: SecretBox,
  accountId: string,
  input: TIncidentConnection,
): Promise<void> {
  const parsed = ZIncidentConnection.parse(input);
  const data = {
    incidentApiBaseUrl: parsed.baseUrl.replace(/\/+$/, ''),
    sealedIncidentApiKey: await secretBox.seal(
      parsed.apiKey,
      secretBinding.incidentApiKey(accountId),
    ),
    incidentClientId: parsed.clientId,
    incidentSubClientIds: [...new Set(parsed.subClientIds)].filter((id) => id !== parsed.clientId),
  };
  await db.prisma.accountConfiguration.upsert({
    where: { accountId },
    create: { accountId, ...data },
    update: data,
  });
}

export async function readAccountSettings(
  db: TDatabase,
  accountId: string,
): Promise<AccountSettings> {
  const row = await db.prisma.accountConfiguration.findUnique({ where: { accountId } });
  if (!row) return { ...DEFAULT_ACCOUNT_SETTINGS };
  return {
    forwardInternalNotes: row.forwardInternalNotes,
    solveOnTakedownSuccess: row.solveOnTakedownSuccess,
    openTicketsForDetectedIncidents: row.openTicketsForDetectedIncidents,
    newTicketGroupId: row.newTicketGroupId === null ? null : Number(row.newTicketGroupId),
  };
}

export async function saveAccountSettings(
  db: TDatabase,
  accountId: string,
  update: TAccountSettingsUpdate,
): Promise<AccountSettings> {
  const parsed = ZAccountSettingsUpdate.parse(update);
  const data = {
    ...parsed,
    newTicketGroupId:
      parsed.newTicketGroupId === undefined
        ? undefined
        : parsed.newTicketGroupId === null
          ? null
          : BigInt(parsed.newTicketGroupId),
  };
  await db.prisma.accountConfiguration.upsert({
    where: { accountId },
    create: { accountId, ...data },
    update: data,
  });
  return readAccountSettings(db, accountId);
}

/** What setup needs to know from earlier runs, so running it again creates nothing twice. */
export async function loadSetupExisting(
  db: TDatabase,
  secretBox: SecretBox,
  accountId: string,
): Promise<SetupExisting> {
  const [config, subscriptions] = await Promise.all([
    db.prisma.accountConfiguration.findUnique({ where: { accountId } }),
    db.prisma.incidentSubscription.findMany({ where: { accountId } }),
  ]);
  const id = (value: bigint | null | undefined) => (value == null ? null : Number(value));
  return {
    fields: {
      threat: id(config?.threatFieldId),
      incidentId: id(config?.incidentIdFieldId),
      status: id(config?.statusFieldId),
    },
    zendeskWebhookId: config?.zendeskWebhookId ?? undefined,
    incidentSubscriptions: await Promise.all(
      subscriptions.map(async (row) => ({
        clientId: row.clientId,
        subscriptionId: row.receiverId,
        webhookId: row.externalId ?? '',
        secret: await secretBox
          .open(row.sealedSecret, secretBinding.incidentSubscriptionSecret(accountId, row.clientId))
          .catch(() => null),
      })),
    ),
  };
}

/** Persists what setup produced; secrets sealed. A failed step (null) keeps what was stored. */
export async function saveSetupResult(
  db: TDatabase,
  secretBox: SecretBox,
  accountId: string,
  result: Pick<
    SetupResult,
    'fields' | 'zendeskWebhook' | 'incidentSubscriptions' | 'zendeskLocale'
  >,
): Promise<void> {
  const big = (value: number | null) => (value === null ? undefined : BigInt(value));
  const config = {
    ...(result.zendeskLocale === undefined ? {} : { zendeskLocale: result.zendeskLocale }),
    threatFieldId: big(result.fields.threat),
    incidentIdFieldId: big(result.fields.incidentId),
    statusFieldId: big(result.fields.status),
    ...(result.zendeskWebhook
      ? {
          zendeskWebhookId: result.zendeskWebhook.id,
          sealedZendeskWebhookSecret: await secretBox.seal(
            result.zendeskWebhook.secret,
            secretBinding.zendeskWebhookSecret(accountId),
          ),
        }
      : {}),
  };
  const subscriptions = await Promise.all(
    result.incidentSubscriptions.map(async (subscription) => ({
      clientId: subscription.clientId,
      receiverId: subscription.subscriptionId,
      externalId: subscription.webhookId,
      sealedSecret: await secretBox.seal(
        subscription.secret,
        secretBinding.incidentSubscriptionSecret(accountId, subscription.clientId),
      ),
    })),
  );
  // One short transaction: sealing happened above, outside it.
  await db.prisma.$transaction(async (tx) => {
    await tx.accountConfiguration.upsert({
      where: { accountId },
      create: { accountId, ...config },
      update: config,
    });
    for (const subscription of subscriptions) {
      const previous = await tx.incidentSubscription.findUnique({
        where: { accountId_clientId: { accountId, clientId: subscription.clientId } },
      });
      const keepPrevious =
        previous && previous.receiverId === subscription.receiverId ? previous.sealedSecret : null;
      await tx.incidentSubscription.upsert({
        where: { accountId_clientId: { accountId, clientId: subscription.clientId } },
        create: { accountId, ...subscription },
        update: { ...subscription, sealedPreviousSecret: keepPrevious },
      });
    }
  });
}
