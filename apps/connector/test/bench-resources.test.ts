// What the benchmarks sample and undo: the resource sampler's maxima (bench/resource-sampler.ts)
// and the cleanup stack (bench/cleanup-stack.ts).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { CleanupStack } from '../bench/cleanup-stack';
import { startResourceSampler, withApplicationName } from '../bench/resource-sampler';

describe('startResourceSampler', () => {
  it('keeps the highest RSS of each process, and skips one that is gone', async () => {
    const sampler = await startResourceSampler({
      processes: () => [
        { label: 'self', pid: process.pid },
        { label: 'gone', pid: 2 ** 22 + 1 }, // above the kernel's pid limit: never a process
      ],
      intervalMs: 60_000, // the last sample stop() takes is the one read
    });
    const rssNow = process.memoryUsage().rss / 1024 / 1024;
    const figures = await sampler.stop();
    expect(figures.samples).toBeGreaterThan(0);
    expect(Object.keys(figures.maxRssMb)).toEqual(['self']);
    expect(figures.maxRssMb.self).toBeGreaterThan(rssNow / 2);
    expect(figures.connections).toBeNull();
    expect(await sampler.stop()).toEqual(figures);
  });

  it.runIf(Boolean(process.env.DATABASE_URL))(
    'counts the PostgreSQL connections of the names under its prefix, per name',
    async () => {
      const prefix = `bench_test_${randomBytes(4).toString('hex')}_`;
      const open = (name: string) =>
        new pg.Client({
          connectionString: withApplicationName(process.env.DATABASE_URL!, prefix + name),
        });
      const clients = [open('one'), open('one'), open('two')];
      const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
      for (const client of [...clients, other]) await client.connect();
      try {
        const sampler = await startResourceSampler({
          processes: () => [],
          postgres: { url: process.env.DATABASE_URL!, applicationNamePrefix: prefix },
          intervalMs: 60_000,
        });
        const figures = await sampler.stop();
        expect(figures.connections).toMatchObject({
          maxOpen: 3,
          maxOpenByInstance: { [`${prefix}one`]: 2, [`${prefix}two`]: 1 },
        });
      } finally {
        for (const client of [...clients, other]) await client.end();
      }
    },
  );
});

describe('withApplicationName', () => {
  it('adds the name and keeps the other parameters', () => {
    const url = new URL(
      withApplicationName('postgres://u@h:5432/db?schema=s1', 'bench_tenants_x_instance-1'),
    );
    expect(url.searchParams.get('schema')).toBe('s1');
    expect(url.searchParams.get('application_name')).toBe('bench_tenants_x_instance-1');
  });
});

describe('CleanupStack', () => {
  it('runs the last pushed first, and the others after one that fails', async () => {
    const ran: string[] = [];
    const cleanups = new CleanupStack();
    cleanups.push('database', async () => void ran.push('database'));
    cleanups.push('proxy', async () => {
      ran.push('proxy');
      throw new Error('already closed');
    });
    cleanups.push('instances', async () => void ran.push('instances'));
    await cleanups.run();
    expect(ran).toEqual(['instances', 'proxy', 'database']);
    await cleanups.run(); // each step once
    expect(ran).toHaveLength(3);
  });
});
