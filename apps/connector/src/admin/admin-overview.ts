// What the admin page shows about its account, in one read. Secrets never leave: the incident API
// key and the sidebar secret are reported as set or not set only.
import type { AccountDisconnection } from '@incident-desk/admin-contract';
import type { TDatabase } from '@incident-desk/db';
import {
  disconnectionOf,
  getConnectionStatus,
  readAccountSettings,
  readSetupStatus,
  scopeSet,
  type TZendeskOAuthConfig,
  zendeskBaseUrl,
} from '../accounts';
import type { WriteHealthReader } from '../sync';

export async function adminOverview(
  db: TDatabase,
  oauth: TZendeskOAuthConfig,
  accountId: string,
  ticketWrites: Pick<WriteHealthReader, 'account'>,
) {
  const [account, connection, health, setup, settings, subscriptions, writes] = await Promise.all([
    db.prisma.account.findUniqueOrThrow({
      where: { id: accountId },
      include: { configuration: true },
    }),
    getConnectionStatus(db, accountId),
    db.prisma.accountHealth.findUnique({ where: { accountId } }),
    readSetupStatus(db, accountId),
    readAccountSettings(db, accountId),
    db.prisma.incidentSubscription.findMany({
      where: { accountId },
      select: { clientId: true, createdAt: true, lastEventAt: true, lastTestAt: true },
      orderBy: { clientId: 'asc' },
    }),
    ticketWrites.account(accountId),
  ]);
  const disconnection = disconnectionOf(account);
  const granted = new Set(connection.scope);
  const steadyState = [...scopeSet(oauth.scope)];
  const configuration = account.configuration;
  return {
    // where the connector reaches the account's Zendesk (a local sandbox in the demo)
    account: {
      subdomain: account.zendeskSubdomain,
      zendeskUrl: zendeskBaseUrl(oauth.baseUrlTemplate, account.zendeskSubdomain),
    },
    connection: {
      state: connection.state,
      grant: connection.grant,
      scopes: connection.scope,
      // `read` covers users:read on Zendesk; only a token with neither lacks it
      missingScopes: steadyState.filter(
        (scope) => !granted.has(scope) && !(scope.endsWith(':read') && granted.has('read')),
      ),
      accessExpiresAt: connection.accessExpiresAt,
      refreshExpiresAt: connection.refreshExpiresAt,
      lastError: connection.lastError,
      lastErrorAt: connection.lastErrorAt,
    },
    // whether changes reach the account's tickets: a valid token alone does not say so
    ticketWrites: writes,
    // found gone from Zendesk (app uninstalled, grant lost), or a disconnect left unfinished
    disconnection: disconnection
      ? ({
          reason: disconnection.reason,
          since: disconnection.at.toISOString(),
          detail: disconnection.detail,
        } satisfies AccountDisconnection)
      : null,
    health: {
      lastZendeskWebhookAt: health?.lastZendeskWebhookAt ?? null,
      lastIncidentEventAt: health?.lastIncidentEventAt ?? null,
      lastWebhookTestAt: health?.lastWebhookTestAt ?? null,
      // per client: setup confirms with webhook.test; a real event proves delivery end to end
      subscriptions: subscriptions.map((row) => ({
        clientId: row.clientId,
        subscribedAt: row.createdAt,
        lastEventAt: row.lastEventAt,
        lastWebhookTestAt: row.lastTestAt,
      })),
    },
    setup,
    settings,
    incident: {
      baseUrl: configuration?.incidentApiBaseUrl ?? null,
      apiKey: configuration?.sealedIncidentApiKey ? ('set' as const) : ('not_set' as const),
      clientId: configuration?.incidentClientId ?? null,
      clientName: configuration?.incidentClientName ?? null,
      subClientIds: configuration?.incidentSubClientIds ?? [],
    },
  };
}
