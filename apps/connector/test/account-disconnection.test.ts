// The connector notices an account gone from Zendesk two ways and stops its work: the sidebar app
// no longer among the account's installations (after it was seen there), or a refresh Zendesk
// refuses for good. Either way the account is disconnected: its jobs are skipped once (never
// retried against Zendesk), the changes waiting for its writer are dropped, setup refuses, and an
// admin's new install makes it act again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobQueue, type Job, type PgBoss } from '@incident-desk/db';
import { AccountUnavailableError } from '../src/accounts/account-context';
import { createAccountContextProvider } from '../src/accounts/account-context-provider';
import { runSetupJob } from '../src/accounts/setup-job';
import { readDisconnection } from '../src/accounts/account-disconnection';
import { checkAppInstallation } from '../src/disconnect/app-installation-check';
import { startInstallationChecks } from '../src/disconnect/installation-check-service';
import { syncJobOptions } from '../src/ingest/sync-job-options';
import { INCIDENT_EVENT_QUEUE } from '../src/jobs/incident-event-job';
import { TICKET_EVENT_QUEUE } from '../src/jobs/ticket-event-job';
import { createLogger } from '../src/log/logger';
import { secretBinding } from '../src/secrets/secret-bindings';
import { createSyncQueues } from '../src/worker/queues';
import { startWorker, type Worker } from '../src/worker/worker';
import { install, startAccountsHarness, type AccountsHarness } from './accounts-harness';
import { eventually } from './support/eventually';
import { backends } from './support/test-database';

const APP_ID = 515151;
const silent = createLogger(() => undefined);

/** Until `check` holds (see eventually). */
function waitFor(check: () => Promise<boolean> | boolean): Promise<true> {
  return eventually('the condition', async () => ((await check()) ? true : undefined), {
    intervalMs: 50,
  });
}

describe.each(backends)('disconnected accounts on %s', (backend) => {
  let h: AccountsHarness;
  let boss: PgBoss;
  let worker: Worker;
  let counter = 0;
  const handled: string[] = [];

  const provider = () =>
    createAccountContextProvider({
      db: h.db,
      secretBox: h.secretBox,
      config: { oauth: h.oauth, now: h.now, fetch: h.fetch },
    });
  const deps = () => ({
    db: h.db,
    accounts: provider(),
    appId: APP_ID,
    now: () => new Date(h.now()),
  });

  async function installed() {
    counter += 1;
    const subdomain = `gone${counter}`;
    const users = await h.createAccount(subdomain);
    expect((await install(h, subdomain, users.adminId)).status).toBe(200);
    const { id } = await h.db.prisma.account.findUniqueOrThrow({
      where: { zendeskSubdomain: subdomain },
    });
    return { accountId: id, subdomain, adminId: users.adminId };
  }

  const installApp = (subdomain: string) =>
    h.control(`/accounts/${subdomain}/apps/${APP_ID}/install`, {});
  const uninstallApp = async (subdomain: string) => {
    const response = await fetch(
      `${h.sandboxUrl}/_sandbox/accounts/${subdomain}/apps/${APP_ID}/install`,
      {
        method: 'DELETE',
      },
    );
    expect(response.status).toBe(204);
  };

  const waitingChange = (accountId: string, ticketId: bigint) =>
    h.db.prisma.pendingTicketChange.create({
      data: {
        accountId,
        ticketId,
        incidentId: 'inc_1',
        eventRef: `evt_${ticketId}`,
        eventName: 'incident.status_changed',
        eventAt: new Date(h.now()),
        statusValue: 'incident_status_closed',
        readyAt: new Date(h.now()),
      },
    });

  async function jobOf(accountId: string, key: string) {
    const id = await boss.send(
      TICKET_EVENT_QUEUE,
      { accountId, key },
      { singletonKey: key, ...syncJobOptions(accountId) },
    );
    await waitFor(async () => {
      const [job] = await boss.findJobs<unknown>(TICKET_EVENT_QUEUE, { id: id! });
      return (job as Job<unknown> & { state?: string })?.state === 'completed';
    });
    return id!;
  }

  beforeAll(async () => {
    h = await startAccountsHarness(backend);
    boss = await createJobQueue(h.db, { supervise: true, schedule: false });
    await createSyncQueues(boss, { retryLimit: 3, retryDelay: 1 });
    const handler = async (_ctx: unknown, data: unknown) => {
      handled.push((data as { key: string }).key);
      return { status: 'applied' as const };
    };
    worker = await startWorker({
      boss,
      db: h.db,
      accounts: provider(),
      handlers: { [INCIDENT_EVENT_QUEUE]: handler, [TICKET_EVENT_QUEUE]: handler },
      pollingIntervalSeconds: 0.5,
      failures: { retryLimit: 3, retryDelaySeconds: 1 },
      logger: silent,
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await boss?.stop({ graceful: false });
    await h?.close();
  });

  it('an app uninstalled after it was seen disconnects the account; one never seen does not', async () => {
    const { accountId, subdomain } = await installed();
    // authorised before the app is installed: nothing to conclude yet
    expect((await checkAppInstallation(deps(), accountId)).result).toBe('not_yet_installed');
    expect(await readDisconnection(h.db, accountId)).toBeNull();

    await installApp(subdomain);
    expect((await checkAppInstallation(deps(), accountId)).result).toBe('installed');
    const seen = await h.db.prisma.account.findUniqueOrThrow({ where: { id: accountId } });
    expect(seen.appInstallationSeenAt?.getTime()).toBe(h.now());
    await waitingChange(accountId, 7n);

    await uninstallApp(subdomain);
    h.clock.now += 60_000;
    expect((await checkAppInstallation(deps(), accountId)).result).toBe('uninstalled');
    expect(await readDisconnection(h.db, accountId)).toMatchObject({
      at: new Date(h.now()),
      reason: 'app_uninstalled',
      detail: expect.stringContaining(`app ${APP_ID}`),
    });
    // the writer has nothing of it left to write or retry
    expect(
      await h.db.prisma.pendingTicketChange.findMany({
        where: { accountId },
        select: { failedReason: true },
      }),
    ).toEqual([{ failedReason: 'not written: the account was disconnected (app uninstalled)' }]);
    const refused = await provider()
      .forAccount(accountId)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AccountUnavailableError);
    expect(refused).toMatchObject({ reason: 'disconnected' });
    // its admins still reach Zendesk with its token (role checks, the disconnect's clean-up)
    await expect(provider().zendeskFor(accountId)).resolves.toBeDefined();
  });

  it('its jobs are skipped without a retry; setup refuses; an install makes it act again', async () => {
    const { accountId, subdomain, adminId } = await installed();
    await installApp(subdomain);
    await checkAppInstallation(deps(), accountId);
    await uninstallApp(subdomain);
    await checkAppInstallation(deps(), accountId);

    const id = await jobOf(accountId, `${subdomain}-job`);
    expect(handled).not.toContain(`${subdomain}-job`);
    const [job] = await boss.findJobs<unknown>(TICKET_EVENT_QUEUE, { id });
    expect((job as unknown as { retryCount: number }).retryCount).toBe(0);
    expect(await h.db.prisma.syncFailure.count({ where: { accountId } })).toBe(0);

    await runSetupJob(
      {
        db: h.db,
        secretBox: h.secretBox,
        accounts: provider(),
        oauth: h.oauth,
        connectorUrl: 'http://c',
      },
      accountId,
    );
    const config = await h.db.prisma.accountConfiguration.findUniqueOrThrow({
      where: { accountId },
    });
    expect(config.setupState).toBe('needs_authorization');
    expect(JSON.stringify(config.setupReport)).toContain('disconnected');

    await installApp(subdomain);
    expect((await install(h, subdomain, adminId)).status).toBe(200);
    expect(await readDisconnection(h.db, accountId)).toBeNull();
    // acting again: what stops it now is only the missing incident connection
    const after = await provider()
      .forAccount(accountId)
      .catch((error: unknown) => error);
    expect(after).toMatchObject({ reason: 'not_configured' });
  });

  it('a Zendesk that cannot say (an error, a missing scope) disconnects nothing', async () => {
    const { accountId, subdomain } = await installed();
    await installApp(subdomain);
    await checkAppInstallation(deps(), accountId);
    await h.control('/faults', {
      path: '/api/v2/apps/installations*',
      method: 'GET',
      kind: 'error',
      status: 500,
      subdomain,
      times: 10,
    });
    const check = await checkAppInstallation(deps(), accountId);
    expect(check.result).toBe('unknown');
    await h.control('/faults', {
      path: '/api/v2/apps/installations*',
      method: 'GET',
      kind: 'forbidden',
      subdomain,
      times: 10,
    });
    expect((await checkAppInstallation(deps(), accountId)).result).toBe('unknown');
    expect(await readDisconnection(h.db, accountId)).toBeNull();
    await fetch(`${h.sandboxUrl}/_sandbox/faults`, { method: 'DELETE' });
  });

  it('the periodic check asks each connected account once per interval, and a disconnected one no more', async () => {
    const { accountId, subdomain } = await installed();
    await installApp(subdomain);
    const service = startInstallationChecks({
      ...deps(),
      intervalMs: 15 * 60_000,
      logger: silent,
      firstPassDelayMs: 3_600_000,
    });
    try {
      expect((await service.runOnce()).get(accountId)).toBe('installed');
      // within the interval: not asked again
      expect((await service.runOnce()).has(accountId)).toBe(false);
      await uninstallApp(subdomain);
      h.clock.now += 15 * 60_000 + 1;
      expect((await service.runOnce()).get(accountId)).toBe('uninstalled');
      h.clock.now += 15 * 60_000 + 1;
      expect((await service.runOnce()).has(accountId)).toBe(false);
    } finally {
      await service.stop();
    }
  });

  it('a refresh Zendesk refuses for good disconnects the account, once; its work stops without asking again', async () => {
    const { accountId, subdomain } = await installed();
    await waitingChange(accountId, 9n);
    const row = await h.db.prisma.zendeskCredential.findUniqueOrThrow({ where: { accountId } });
    const access = await h.secretBox.open(
      row.sealedAccessToken,
      secretBinding.zendeskAccessToken(accountId),
    );
    // an admin revokes the grant in Zendesk (or the app's uninstall took it): the refresh token dies
    await h.control('/tokens/revoke', { token: access });
    h.clock.now += 86_400_000; // the access token has expired: the next call must refresh
    const refreshes = () =>
      h.tokenRequests.filter((r) => r.subdomain === subdomain && r.grant === 'refresh_token')
        .length;

    const zendesk = await provider().zendeskFor(accountId);
    await expect(zendesk.users.me()).rejects.toBeInstanceOf(AccountUnavailableError);
    expect(refreshes()).toBe(1);
    expect(await readDisconnection(h.db, accountId)).toMatchObject({
      reason: 'authorization_lost',
      detail: expect.stringContaining('invalid_grant'),
    });
    expect(
      (await h.db.prisma.pendingTicketChange.findFirstOrThrow({ where: { accountId } }))
        .failedReason,
    ).toBe('not written: the account was disconnected (authorization lost)');

    // its jobs: skipped at once, never retried, and Zendesk is not asked again
    const key = `${subdomain}-after-refusal`;
    const id = await jobOf(accountId, key);
    expect(handled).not.toContain(key);
    const [job] = await boss.findJobs<unknown>(TICKET_EVENT_QUEUE, { id });
    expect((job as unknown as { retryCount: number }).retryCount).toBe(0);
    expect(await h.db.prisma.syncFailure.count({ where: { accountId } })).toBe(0);
    expect((await checkAppInstallation(deps(), accountId)).result).toBe('unknown');
    expect(refreshes()).toBe(1);
  });
});
