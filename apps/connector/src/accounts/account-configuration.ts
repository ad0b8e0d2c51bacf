// Per-account configuration: incident service access (key sealed), the settings of
// AccountSettings, and what setup produced (field ids, sealed webhook secrets). Every function
// takes the account id; nothing here reads across accounts.
import type { TDatabase } from '@incident-desk/db';
import { z } from 'zod';
import { secretBinding, type SecretBox } from '../secrets';
import type { SetupExisting, SetupResult } from '../setup';
import type { AccountSettings } from './account-context';

/** What the admin page sets: the sync handlers' settings and what setup creates in Zendesk. */
export interface AdminSettings extends AccountSettings {
  /** Setup creates the two shared queue views (setup/queue-views.ts). Default on. */
  createZendeskViews: boolean;
}

const DEFAULT_ACCOUNT_SETTINGS: AdminSettings = {
  forwardInternalNotes: false,
  solveOnTakedownSuccess: false,
  openTicketsForDetectedIncidents: true,
  newTicketGroupId: null,
  createZendeskViews: true,
};

export const ZAccountSettingsUpdate = z
  .object({
    forwardInternalNotes: z.boolean(),
    solveOnTakedownSuccess: z.boolean(),
    openTicketsForDetectedIncidents: z.boolean(),
    newTicketGroupId: z.number().int().positive().nullable(),
    createZendeskViews: z.boolean(),
  })
  .partial()
  .strict();
export type TAccountSettingsUpdate = z.infer<typeof ZAccountSettingsUpdate>;

const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TOP_LEVEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** A host name as an admin types it: lower-cased, without a trailing dot; null when it is none. */
function ownDomainOf(raw: string): string | null {
  const host = raw.trim().toLowerCase().replace(/\.$/, '');
  const labels = host.split('.');
  if (host.length > 253 || labels.length < 2) return null;
  if (!labels.every((label) => HOST_LABEL.test(label))) return null;
  return TOP_LEVEL.test(labels.at(-1)!) ? host : null;
}

/**
 * The client's own domains (the protected brand's, its support address's): never offered as a
 * threat found in a ticket, nor their subdomains, pages and addresses. At most 50 host names.
 */
export const ZOwnDomains = z
  .array(z.string().max(253))
  .max(50)
  .transform((values, context) => {
    const domains: string[] = [];
    for (const value of values) {
      const domain = ownDomainOf(value);
      if (domain === null) {
        context.addIssue({
          code: 'custom',
          message: `not a host name (such as example.com): ${JSON.stringify(value.slice(0, 80))}`,
        });
        return z.NEVER;
      }
      if (!domains.includes(domain)) domains.push(domain);
    }
    return domains;
  });

export async function readOwnDomains(db: TDatabase, accountId: string): Promise<string[]> {
  const row = await db.prisma.accountConfiguration.findUnique({
    where: { accountId },
    select: { ownDomains: true },
  });
  return row?.ownDomains ?? [];
}

export async function saveOwnDomains(
  db: TDatabase,
  accountId: string,
  domains: readonly string[],
): Promise<string[]> {
  const ownDomains = ZOwnDomains.parse(domains);
  await db.prisma.accountConfiguration.upsert({
    where: { accountId },
    create: { accountId, ownDomains },
    update: { ownDomains },
  });
  return readOwnDomains(db, accountId);
}

const ZIncidentConnection = z.object({
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
): Promise<AdminSettings> {
  const row = await db.prisma.accountConfiguration.findUnique({ where: { accountId } });
  if (!row) return { ...DEFAULT_ACCOUNT_SETTINGS };
  return {
    forwardInternalNotes: row.forwardInternalNotes,
    solveOnTakedownSuccess: row.solveOnTakedownSuccess,
    openTicketsForDetectedIncidents: row.openTicketsForDetectedIncidents,
    newTicketGroupId: row.newTicketGroupId === null ? null : Number(row.newTicketGroupId),
    createZendeskViews: row.createZendeskViews,
  };
}

export async function saveAccountSettings(
  db: TDatabase,
  accountId: string,
  update: TAccountSettingsUpdate,
): Promise<AdminSettings> {
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
    triggerIds: (config?.zendeskTriggerIds ?? []).map(Number),
    viewIds: (config?.zendeskViewIds ?? []).map(Number),
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
  > &
    Partial<Pick<SetupResult, 'views' | 'triggerIds'>>,
): Promise<void> {
  const big = (value: number | null) => (value === null ? undefined : BigInt(value));
  const config = {
    ...(result.zendeskLocale === undefined ? {} : { zendeskLocale: result.zendeskLocale }),
    threatFieldId: big(result.fields.threat),
    incidentIdFieldId: big(result.fields.incidentId),
    statusFieldId: big(result.fields.status),
    ...(result.views ? { zendeskViewIds: result.views.map(BigInt) } : {}),
    ...(result.triggerIds ? { zendeskTriggerIds: result.triggerIds.map(BigInt) } : {}),
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
