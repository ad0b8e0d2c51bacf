import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnFixture } from './helpers/child-process';
import { backends, createTestDatabase, type TestDatabase } from './helpers/test-database';

const killAfterCommits = 40;

describe.each(backends)('a writer killed with SIGKILL on %s', (backend) => {
  let target: TestDatabase;

  beforeAll(async () => {
    target = await createTestDatabase(backend);
    // Migrate first, so the child spends its time writing.
    await (await target.open()).close();
  });

  afterAll(async () => {
    await target?.dispose();
  });

  it('loses no acknowledged commit and leaves no half transaction', async () => {
    const child = spawnFixture('writer.ts', [JSON.stringify(target.options)]);
    const committed: string[] = [];
    let stderr = '';
    let buffered = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );

    await new Promise<void>((resolve, reject) => {
      child.on('exit', () => reject(new Error(`writer exited early: ${stderr}`)));
      child.stdout?.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) {
          const id = /^committed (\S+)$/.exec(line)?.[1];
          if (id) committed.push(id);
        }
        // Killed while it is still writing: the next transaction is already on its way.
        if (committed.length >= killAfterCommits) {
          child.kill('SIGKILL');
          resolve();
        }
      });
    });
    expect(await exited).toBe('SIGKILL');

    // On PGlite this open also takes over the dead writer's lock.
    const db = await target.open();
    try {
      const accounts = await db.prisma.account.findMany({
        where: { zendeskSubdomain: { startsWith: 'writer-' } },
        include: { incidentLinks: true },
      });
      const stored = new Set(accounts.map((account) => account.id));
      expect(committed.filter((id) => !stored.has(id))).toEqual([]);
      // Every stored account has its link: a transaction is there whole or not at all.
      expect(accounts.filter((account) => account.incidentLinks.length !== 1)).toEqual([]);
      // At most the one transaction in flight at the kill can be stored without being printed.
      expect(accounts.length - committed.length).toBeLessThanOrEqual(1);
    } finally {
      await db.close();
    }
  });
});
