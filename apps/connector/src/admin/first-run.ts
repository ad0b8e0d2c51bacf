// The admin page's first-run checklist, computed from what the connector already records: the
// Zendesk credential, the incident connection, setup's state, the webhook health times and the
// sidebar's sessions. Each step says what is done and what the admin does next.
import type { TDatabase } from '@incident-desk/db';
import { getConnectionStatus } from '../accounts/credential-store';
import { readSetupStatus } from '../accounts/setup-state';
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

export async function firstRunChecklist(
  db: TDatabase,
  accountId: string,
): Promise<FirstRunChecklist> {
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
    zendeskStep(connection.state, subdomain),
    incidentKeyStep(configuration, keySet),
    setupStep(setup, keySet),
    webhooksStep(subscriptions, health?.lastZendeskWebhookAt, setup.state === 'succeeded'),
    sidebarStep(sidebarSession !== null),
  ];
  return { complete: steps.every((s) => s.state === 'done'), steps, authorizeUrl };
}
