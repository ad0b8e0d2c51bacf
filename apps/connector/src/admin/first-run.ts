// The admin page's first-run checklist, computed from what the connector already records: the
// Zendesk credential, the incident connection, setup's state, the webhook health times and the
// sidebar's sessions. Each step says what is done and what the admin does next.
import type { TDatabase } from '@incident-desk/db';
import { canTestZendeskWebhook, getConnectionStatus, readSetupStatus } from '../accounts';
import type { AdminLanguage } from './admin-language';
import { firstRunTexts } from './first-run-texts';
import {
  incidentKeyStep,
  setupStep,
  sidebarStep,
  webhooksStep,
  zendeskStep,
  type ChecklistStep,
} from './first-run-steps';

export interface FirstRunChecklist {
  complete: boolean;
  steps: ChecklistStep[];
  /** Only our own install path, for the authorise action. */
  authorizeUrl: string;
}

/** `zendeskUrlOf`: the account's Zendesk address as the connector reaches it. */
export async function firstRunChecklist(
  db: TDatabase,
  accountId: string,
  zendeskUrlOf: (subdomain: string) => string,
  /** The session's language: the sentences are the admin's. */
  language: AdminLanguage = 'en',
): Promise<FirstRunChecklist> {
  const t = firstRunTexts(language);
  const [account, connection, setup, health, subscriptions, sidebarSession] = await Promise.all([
    db.prisma.account.findUniqueOrThrow({
      where: { id: accountId },
      include: { configuration: true },
    }),
    getConnectionStatus(db, accountId),
    readSetupStatus(db, accountId),
    db.prisma.accountHealth.findUnique({ where: { accountId } }),
    db.prisma.incidentSubscription.findMany({
      where: { accountId },
      select: { clientId: true, lastTestAt: true, lastEventAt: true },
    }),
    db.prisma.sidebarSession.findFirst({
      where: { accountId },
      orderBy: { createdAt: 'asc' },
      select: { createdAt: true },
    }),
  ]);
  const configuration = account.configuration;
  const subdomain = account.zendeskSubdomain;
  const authorizeUrl = `/install?${new URLSearchParams({ subdomain })}`;
  const keySet = Boolean(configuration?.sealedIncidentApiKey && configuration.incidentClientId);
  const steps: ChecklistStep[] = [
    zendeskStep(connection.state, subdomain, zendeskUrlOf(subdomain), t),
    incidentKeyStep(configuration, keySet, t),
    setupStep(setup, keySet, t),
    webhooksStep(
      subscriptions,
      health?.lastZendeskWebhookAt,
      setup.state === 'succeeded',
      connection.state === 'active' && canTestZendeskWebhook(connection.scope),
      t,
    ),
    sidebarStep(sidebarSession !== null, t),
  ];
  return { complete: steps.every((s) => s.state === 'done'), steps, authorizeUrl };
}
