// An admin disconnects the account: its work stops first (the account is marked disconnected, so
// no job, write or setup acts for it), then what setup created goes (in Zendesk, with a token that
// has setup's scopes; at the incident service, with the account's key), the Zendesk tokens are
// revoked, and the account is deleted with everything it holds (every table cascades from it):
// the sealed tokens, the incident API key, the webhook secrets, links and history, sessions.
//
// Why the data go too: the incidents and their history stay in the incident service and on the
// tickets (notes, the Incident ID and Status fields, which are kept while tickets use them), so a
// new install loses little (an incident's next event finds its ticket again by the Incident ID
// field); keeping links and threats of a customer who left would be keeping their data for nothing,
// and a subdomain can change hands, so what a new install under it would inherit must be nothing.
//
// A disconnect that stops midway (a crash) leaves the account disconnected (`admin_disconnect`):
// disconnecting again finishes it.
import type { DisconnectResult, DisconnectStep } from '@incident-desk/admin-contract';
import { createIncidentClient, type IncidentClient } from '@incident-desk/incident-api';
import { markAccountDisconnected, withAccountSetupLock } from '../accounts';
import { AppError } from '../http';
import type { Logger } from '../log';
import { secretBinding } from '../secrets';
import { removeZendeskSetup, stepErrorMessage } from '../setup';
import { removalClient, type RemovalClient, type RemovalClientDeps } from './removal-client';
import { removeIncidentSubscriptions } from './remove-incident-subscriptions';

export interface DisconnectDeps extends RemovalClientDeps {
  /** Where Zendesk and the incident service reach this connector (setup's receiver addresses). */
  connectorUrl: string;
  logger: Logger;
}

export interface DisconnectInput {
  accountId: string;
  subdomain: string;
  /** Who asked (the signed-in admin's name), for the log. */
  by: string;
  deleteTicketFields: boolean;
}

/** Where the admin page sends an admin to grant setup's scopes for the removal. */
export const REMOVAL_AUTHORIZE_URL = '/admin/disconnect/authorize';

export type DisconnectOutcome =
  DisconnectResult | { error: AppError; authorizeUrl?: string | undefined };

const ACCESS_REVOKED = 'oauth_token';

async function incidentClientOf(
  deps: DisconnectDeps,
  accountId: string,
): Promise<IncidentClient | null> {
  const config = await deps.db.prisma.accountConfiguration.findUnique({ where: { accountId } });
  if (!config?.incidentApiBaseUrl || !config.sealedIncidentApiKey || !config.incidentClientId)
    return null;
  const apiKey = await deps.secretBox
    .open(config.sealedIncidentApiKey, secretBinding.incidentApiKey(accountId))
    .catch(() => null);
  if (!apiKey) return null;
  return createIncidentClient({
    baseURL: config.incidentApiBaseUrl,
    apiKey,
    clientId: config.incidentClientId,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  });
}

/** The removal's own token, then the account's stored one: revoked at Zendesk, best effort. */
async function revokeTokens(
  deps: DisconnectDeps,
  accountId: string,
  removal: RemovalClient,
): Promise<DisconnectStep[]> {
  const steps: DisconnectStep[] = [];
  const revoke = async (target: string, run: () => Promise<void>) => {
    try {
      await run();
      steps.push({ item: ACCESS_REVOKED, target, outcome: 'removed' });
    } catch (error) {
      steps.push({
        item: ACCESS_REVOKED,
        target,
        outcome: 'skipped',
        message: `Zendesk did not revoke it (${stepErrorMessage(error)}); it is deleted here and expires on its own`,
      });
    }
  };
  if (removal.ownToken)
    await revoke('the removal authorization', () => removal.zendesk.oauthTokens.revokeCurrent());
  const credential = await deps.db.prisma.zendeskCredential.findUnique({ where: { accountId } });
  if (credential?.state === 'active') {
    await revoke('the connector’s Zendesk token', async () =>
      (await deps.accounts.zendeskFor(accountId)).oauthTokens.revokeCurrent(),
    );
  } else if (credential) {
    steps.push({
      item: ACCESS_REVOKED,
      target: 'the connector’s Zendesk token',
      outcome: 'already_gone',
      message: 'Zendesk no longer accepted it',
    });
  }
  return steps;
}

/** What setup stored of the account's Zendesk records: the ids Disconnect removes. */
async function storedSetupOf(deps: DisconnectDeps, accountId: string) {
  const config = await deps.db.prisma.accountConfiguration.findUnique({ where: { accountId } });
  const id = (value: bigint | null | undefined) => (value == null ? null : Number(value));
  return {
    viewIds: (config?.zendeskViewIds ?? []).map(Number),
    triggerIds: (config?.zendeskTriggerIds ?? []).map(Number),
    webhookId: config?.zendeskWebhookId ?? null,
    fields: {
      threat: id(config?.threatFieldId),
      incidentId: id(config?.incidentIdFieldId),
      status: id(config?.statusFieldId),
    },
  };
}

async function deleteAccount(deps: DisconnectDeps, accountId: string): Promise<DisconnectStep> {
  const links = await deps.db.prisma.incidentLink.count({ where: { accountId } });
  await deps.db.prisma.account.delete({ where: { id: accountId } });
  return {
    item: 'account_data',
    target: 'the connector’s records of this account',
    outcome: 'removed',
    message: `the Zendesk tokens, the incident API key, the webhook secrets, ${links === 1 ? '1 incident link' : `${links} incident links`} and their history`,
  };
}

export async function disconnectAccount(
  deps: DisconnectDeps,
  input: DisconnectInput,
): Promise<DisconnectOutcome> {
  const { accountId } = input;
  const outcome = await withAccountSetupLock(deps.db, accountId, 'try', async () => {
    let removal: RemovalClient | null;
    try {
      removal = await removalClient(deps, accountId, input.subdomain);
    } catch (error) {
      return {
        error: new AppError('zendesk_unavailable', {
          message: `Zendesk did not give a token to remove with: ${stepErrorMessage(error)}`,
        }),
      };
    }
    if (!removal) {
      return {
        error: new AppError('authorization_needed', {
          message:
            'removing what setup created needs Zendesk’s "read write" again: authorise it with Zendesk',
        }),
        authorizeUrl: REMOVAL_AUTHORIZE_URL,
      };
    }
    const at = deps.now();
    await markAccountDisconnected(deps.db, accountId, 'admin_disconnect', `by ${input.by}`, at);

    const steps: DisconnectStep[] = await removeZendeskSetup({
      zendesk: removal.zendesk,
      db: deps.db,
      accountId,
      connectorUrl: deps.connectorUrl,
      ...(await storedSetupOf(deps, accountId)),
      deleteTicketFields: input.deleteTicketFields,
    });
    steps.push(
      ...(await removeIncidentSubscriptions({
        incidents: await incidentClientOf(deps, accountId),
        accountId,
        connectorUrl: deps.connectorUrl,
        stored: await deps.db.prisma.incidentSubscription.findMany({
          where: { accountId },
          select: { clientId: true, externalId: true },
        }),
      })),
    );
    steps.push(...(await revokeTokens(deps, accountId, removal)));
    steps.push(await deleteAccount(deps, accountId));

    const result: DisconnectResult = {
      ok: steps.every((step) => step.outcome !== 'failed'),
      steps,
      finishedAt: deps.now().toISOString(),
    };
    const count = (outcome: DisconnectStep['outcome']) =>
      steps.filter((step) => step.outcome === outcome).length;
    deps.logger.info('account disconnected by its admin', {
      accountId,
      removed: count('removed'),
      kept: count('kept'),
      failed: count('failed'),
    });
    return result;
  });
  if (!outcome.acquired) {
    return {
      error: new AppError('in_progress', {
        message: 'setup is running for this account: disconnect once it has finished',
      }),
    };
  }
  return outcome.value;
}
