// Setup as a durable job: queued by the install callback or the admin page's "rerun setup", run by
// any connector instance's worker (pg-boss), one at a time per account. A process dying mid-run
// leaves the job active; pg-boss expires it and runs it again (setup is idempotent).
import type { PgBoss, TDatabase } from '@incident-desk/db';
import type { SecretBox } from '../secrets';
import type { ZendeskClient } from '@incident-desk/zendesk-api';
import { testZendeskWebhook, type ZendeskWebhookTest } from './zendesk-webhook-test';
import { runSetup, type SetupResult, stepErrorMessage } from '../setup';
import { withAccountSetupLock } from './account-lock';
import type { DatabaseAccountContextProvider } from './account-context-provider';
import { loadSetupExisting, readAccountSettings, saveSetupResult } from './account-configuration';
import { narrowAfterSetup } from './setup-narrowing';
import { setupBlocker } from './setup-preconditions';
import { finishedReport, SetupStoppedError, stoppedReport } from './setup-outcome';
import { finishSetup, markSetup } from './setup-state';
import type { TZendeskOAuthConfig } from './zendesk-oauth-config';

export const ACCOUNT_SETUP_QUEUE = 'account-setup';

export interface SetupJobDeps {
  db: TDatabase;
  secretBox: SecretBox;
  accounts: DatabaseAccountContextProvider;
  oauth: TZendeskOAuthConfig;
  /** Where Zendesk and the incident service reach this connector. */
  connectorUrl: string;
  now?: () => number;
  fetch?: typeof fetch;
  log?: (message: string) => void;
}

/** Setup's time limit (a run past it is stopped and retried) and the wait before a retry. */
export interface SetupQueueOptions {
  timeoutSeconds: number;
  retryDelaySeconds: number;
}

export async function createSetupQueue(
  boss: PgBoss,
  options: SetupQueueOptions = { timeoutSeconds: 600, retryDelaySeconds: 30 },
): Promise<void> {
  const timing = {
    retryLimit: 2,
    retryDelay: options.retryDelaySeconds,
    expireInSeconds: options.timeoutSeconds,
  };
  // one queued and one running per account: asking again while queued adds nothing
  await boss.createQueue(ACCOUNT_SETUP_QUEUE, { policy: 'stately', ...timing });
  // an existing queue keeps what it was created with: the configured timing applies from now on
  await boss.updateQueue(ACCOUNT_SETUP_QUEUE, timing);
}

/** Records the request and queues the job (a request while one is already queued is absorbed). */
export async function requestSetup(
  db: TDatabase,
  boss: PgBoss,
  accountId: string,
  now: Date,
): Promise<void> {
  await boss.send(ACCOUNT_SETUP_QUEUE, { accountId }, { singletonKey: accountId });
  await markSetup(db, accountId, 'queued', now);
}

async function setupSettings(db: TDatabase, accountId: string) {
  const settings = await readAccountSettings(db, accountId);
  return {
    forwardInternalNotes: settings.forwardInternalNotes,
    createQueueViews: settings.createZendeskViews,
  };
}

/**
 * `signal`: the queue stopped this run (it outran the setup timeout); its requests end with it.
 * A disconnect of the account under way is waited for (the account is then gone, or disconnected).
 */
export async function runSetupJob(
  deps: SetupJobDeps,
  accountId: string,
  signal?: AbortSignal,
): Promise<void> {
  await withAccountSetupLock(deps.db, accountId, 'wait', () =>
    runSetupOnce(deps, accountId, signal),
  );
}

async function runSetupOnce(
  deps: SetupJobDeps,
  accountId: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { db, secretBox } = deps;
  const now = deps.now ?? Date.now;
  const at = () => new Date(now());
  const account = await db.prisma.account.findUnique({
    where: { id: accountId },
    include: { zendeskCredential: true, configuration: true },
  });
  if (!account) return;
  await markSetup(db, accountId, 'running', at());
  const blocker = await setupBlocker(deps, account, now);
  if (blocker) {
    await finishSetup(db, accountId, blocker.state, blocker.report, at());
    return;
  }

  let result;
  let webhookTest: ZendeskWebhookTest;
  try {
    const clients = await deps.accounts.clientsFor(accountId, signal ? { signal } : {});
    result = await runSetup({
      accountId,
      connectorUrl: deps.connectorUrl,
      zendesk: clients.zendesk,
      incidents: clients.incidents(),
      incidentClientIds: clients.incidentClientIds,
      ...(await setupSettings(db, accountId)),
      existing: await loadSetupExisting(db, secretBox, accountId),
      now: at,
    });
    // what was done is kept (the next run adopts it); a run stopped midway is not a result
    await saveSetupResult(db, secretBox, accountId, result);
    if (signal?.aborted) throw new SetupStoppedError();
    webhookTest = await testWebhookWhileWide(deps, accountId, clients.zendesk, result, at());
  } catch (error) {
    await finishSetup(db, accountId, 'failed', stoppedReport(error), at());
    return;
  }

  const after = await narrowAfterSetup(deps, accountId, account.zendeskSubdomain, now);
  await finishSetup(
    db,
    accountId,
    result.ok ? 'succeeded' : 'failed',
    finishedReport(result, webhookTest, after),
    at(),
  );
}

/**
 * While the token still holds setup's scopes, Zendesk is asked to test the webhook setup made: its
 * signed test delivery confirms the Zendesk direction on the first-run checklist. What it says is
 * added to the run's message when it did not arrive.
 */
async function testWebhookWhileWide(
  deps: SetupJobDeps,
  accountId: string,
  zendesk: ZendeskClient,
  result: SetupResult,
  now: Date,
): Promise<ZendeskWebhookTest> {
  return testZendeskWebhook({
    zendesk,
    connectorUrl: deps.connectorUrl,
    accountId,
    webhookId: result.zendeskWebhook?.id ?? null,
    now,
  });
}

export interface SetupWorker {
  stop(): Promise<void>;
}

export async function startSetupWorker(
  boss: PgBoss,
  deps: SetupJobDeps,
  options: { pollingIntervalSeconds?: number } = {},
): Promise<SetupWorker> {
  const log = deps.log ?? console.log;
  const id = await boss.work<{ accountId?: unknown }>(
    ACCOUNT_SETUP_QUEUE,
    { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 },
    async ([job]) => {
      const accountId = job?.data.accountId;
      if (!job || typeof accountId !== 'string') return;
      try {
        await runSetupJob(deps, accountId, job.signal);
      } catch (error) {
        log(`setup of account ${accountId} failed: ${stepErrorMessage(error)}`);
        await finishSetup(
          deps.db,
          accountId,
          'failed',
          stoppedReport(error),
          new Date((deps.now ?? Date.now)()),
        ).catch(() => undefined);
      }
    },
  );
  return {
    async stop() {
      await boss.offWork(ACCOUNT_SETUP_QUEUE, { id, wait: true });
    },
  };
}
