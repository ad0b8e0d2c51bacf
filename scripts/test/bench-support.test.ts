// The benchmarks' retries of a failed connection, counted (scripts/bench-support.ts), against a
// local server that resets connections, refuses them while it restarts, or asks for a retry later;
// and the JSON line of a benchmark that cannot decide.
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  benchFetch,
  retryCounts,
  transientCause,
  withRetriedMethods,
  withRetries,
  type RetryCounts,
} from '../bench-support';

const supportModule = fileURLToPath(new URL('../bench-support.ts', import.meta.url));
const servers: http.Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Answers `ok`; the first `resets` connections are reset before any answer. */
async function flakyServer(
  resets: number,
  handle: (res: http.ServerResponse) => void = (res) => res.end('ok'),
  port = 0,
) {
  let seen = 0;
  const server = http.createServer((_req, res) => handle(res));
  server.on('connection', (socket) => {
    seen += 1;
    if (seen <= resets) socket.resetAndDestroy();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

function countsSince(before: RetryCounts, call: string) {
  const now = retryCounts();
  return {
    retried: now.retried - before.retried,
    byCall: (now.byCall[call] ?? 0) - (before.byCall[call] ?? 0),
    econnreset: (now.byCause.ECONNRESET ?? 0) - (before.byCause.ECONNRESET ?? 0),
  };
}

describe('benchFetch', () => {
  it('tries a reset connection again, and counts each retry by cause and call', async () => {
    const { url } = await flakyServer(2);
    const before = retryCounts();
    const response = await benchFetch('test reset', url);
    expect(await response.text()).toBe('ok');
    expect(countsSince(before, 'test reset')).toEqual({ retried: 2, byCall: 2, econnreset: 2 });
  });

  it('waits for a server that restarts on its port (connection refused meanwhile)', async () => {
    const { url, server } = await flakyServer(0);
    const port = Number(new URL(url).port);
    await new Promise((resolve) => server.close(resolve));
    setTimeout(() => void flakyServer(0, (res) => res.end('back'), port), 700);
    const before = retryCounts();
    expect(await (await benchFetch('test restart', url)).text()).toBe('back');
    const after = retryCounts();
    expect(after.byCall['test restart']).toBeGreaterThan(0);
    expect((after.byCause.ECONNREFUSED ?? 0) - (before.byCause.ECONNREFUSED ?? 0)).toBe(
      after.byCall['test restart'],
    );
  });

  it('tries a 503 with Retry-After again, and gives any other answer as it is', async () => {
    let calls = 0;
    const { url } = await flakyServer(0, (res) => {
      calls += 1;
      if (calls === 1) res.writeHead(503, { 'retry-after': '1' }).end();
      else if (calls === 2) res.writeHead(503).end('no retry-after');
      else res.end('third');
    });
    const before = retryCounts();
    const started = Date.now();
    expect((await benchFetch('test 503', url)).status).toBe(503);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(
      retryCounts().byCause['503 Retry-After']! - (before.byCause['503 Retry-After'] ?? 0),
    ).toBe(1);
    expect(calls).toBe(2);
  });
});

describe('withRetries and withRetriedMethods', () => {
  it('throws any failure but a failed connection at once', async () => {
    let attempts = 0;
    const failing = withRetries('test other', async () => {
      attempts += 1;
      throw new Error('answered 500');
    });
    await expect(failing).rejects.toThrow('answered 500');
    expect(attempts).toBe(1);
  });

  it('retries the methods that return a promise, and leaves the others as they are', async () => {
    const { url } = await flakyServer(1);
    const client = withRetriedMethods(
      { base: url, read: async () => (await fetch(url)).text(), sync: (n: number) => n * 2 },
      'test client',
    );
    const before = retryCounts();
    expect(client.sync(21)).toBe(42);
    expect(client.base).toBe(url);
    expect(await client.read()).toBe('ok');
    expect(countsSince(before, 'test client')).toMatchObject({ byCall: 1, econnreset: 1 });
  });

  it('knows a failed connection by its code or message, wherever in the causes', () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(transientCause(new TypeError('fetch failed', { cause: reset }))).toBe('ECONNRESET');
    expect(transientCause(new Error('socket hang up'))).toBe('socket hang up');
    expect(transientCause(new TypeError('fetch failed'))).toBe('fetch failed');
    expect(transientCause(new Error('GET /x: 404 not found'))).toBeNull();
  });
});

describe('runBenchmark', () => {
  it('ends a run that fails with the JSON line of an undecided run, and exit code 2', () => {
    const script = `
      import { runBenchmark, countRetry } from ${JSON.stringify(supportModule)};
      runBenchmark({
        label: 'test bench',
        scenario: { rate: 5 },
        main: async (run) => {
          run.measured('phaseA', { p99Ms: 12 });
          run.measured('live', () => ({ sent: 3 }));
          run.stage('phase B');
          countRetry('sandbox control', 'ECONNRESET');
          throw new Error('the connector exited (1) before it was ready\\n--- connector output ---\\nlong');
        },
      });`;
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '--eval', script],
      { cwd: path.dirname(supportModule), encoding: 'utf8' },
    );
    expect(child.status).toBe(2);
    const line = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(line).toMatchObject({
      verdict: 'undecided',
      reason: 'the connector exited (1) before it was ready',
      stage: 'phase B',
      scenario: { rate: 5 },
      measured: { phaseA: { p99Ms: 12 }, live: { sent: 3 } },
      retries: { retried: 1, byCause: { ECONNRESET: 1 }, byCall: { 'sandbox control': 1 } },
    });
    expect(child.stderr).toContain('undecided, in stage "phase B"');
  });
});
