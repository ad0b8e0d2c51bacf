// Setup after an install is a pg-boss job, not a promise in memory: queued by a connector whose
// worker is off, it survives that process and is run by the next one.
import { describe, expect, it } from 'vitest';
import { ACCOUNT_SETUP_QUEUE, createSetupQueue } from '../src/accounts/setup-job';
import { startAdminHarness } from './admin-harness';
import { eventually } from './support/eventually';
import { backends } from './support/test-database';
import { startedForTests } from './support/started-for-tests';

describe.each(backends)('setup after install, durably (%s)', (backend) => {
  const h = startedForTests(() => startAdminHarness(backend, { worker: 'off' }));

  it('the install queues the job; a restarted connector with a worker runs it', async () => {
    const acme = await h.createAccount('acme');
    expect((await h.install('acme', acme.adminId)).status).toBe(303);
    const accountId = await h.accountId('acme');
    const config = () =>
      h.connector.db.prisma.accountConfiguration.findUniqueOrThrow({ where: { accountId } });
    expect((await config()).setupState).toBe('queued');
    const jobs = await h.connector.boss.findJobs(ACCOUNT_SETUP_QUEUE, { data: { accountId } });
    expect(jobs.map((job) => job.state)).toEqual(['created']);

    await h.restart('on');
    // No incident key yet: the job ran and says what it waits for.
    const after = await eventually('the set-up job run', async () => {
      const current = await config();
      return current.setupState === 'queued' ? undefined : current;
    });
    expect(after.setupState).toBe('needs_configuration');
    expect(after.setupReport).toMatchObject({ ok: false });
  });

  it('applies the configured time limit and retry delay to the existing queue', async () => {
    const { boss } = h.connector;
    await createSetupQueue(boss, { timeoutSeconds: 15, retryDelaySeconds: 1 });
    expect(await boss.getQueue(ACCOUNT_SETUP_QUEUE)).toMatchObject({
      expireInSeconds: 15,
      retryDelay: 1,
      retryLimit: 2,
      policy: 'stately',
    });
    await createSetupQueue(boss);
    expect(await boss.getQueue(ACCOUNT_SETUP_QUEUE)).toMatchObject({
      expireInSeconds: 600,
      retryDelay: 30,
    });
  });
});
