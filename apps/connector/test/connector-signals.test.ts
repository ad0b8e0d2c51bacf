// The real connector process (src/main.ts) and its signals: SIGTERM stops it gracefully, waiting
// for requests in flight; a second SIGTERM while it waits exits at once.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  connectorDatabase,
  freePort,
  newSecretsKeys,
  startConnectorProcess,
  type ConnectorDatabase,
  type ConnectorProcess,
} from './support/connector-process';
import { eventually } from './support/eventually';
import { backends } from './support/test-database';

/** A request whose body never finishes: a graceful stop waits for it (up to 5 s). */
async function holdRequest(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.on('error', () => undefined);
  socket.write(
    'POST /webhooks/incident?subscription=x HTTP/1.1\r\nHost: localhost\r\n' +
      'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"event":',
  );
  return socket;
}

describe.each(backends)('connector process signals (%s)', (backend) => {
  let dir: string | undefined;
  let database: ConnectorDatabase | undefined;
  let connector: ConnectorProcess | undefined;
  let held: Socket | undefined;

  afterEach(async () => {
    held?.destroy();
    await connector?.kill();
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function start(): Promise<ConnectorProcess> {
    dir = mkdtempSync(path.join(tmpdir(), 'incident-desk-signals-'));
    database = connectorDatabase(backend, dir, 'signals');
    // no demo: nothing is called at these addresses
    connector = await startConnectorProcess({
      port: await freePort(),
      zendeskUrl: 'http://127.0.0.1:9',
      incidentUrl: 'http://127.0.0.1:9',
      database,
      secretsKeys: newSecretsKeys(),
      demo: false,
    });
    return connector;
  }

  it('stops gracefully on SIGTERM, and exits at once on a second one while it waits', async () => {
    const process_ = await start();
    held = await holdRequest(process_.url);
    let ended = false;
    void process_.exited.then(() => (ended = true));
    let heldClosed = false;
    held.once('close', () => (heldClosed = true));

    process.kill(process_.pid, 'SIGTERM');
    await eventually('the graceful stop to begin', () =>
      /SIGTERM: stopping/.test(process_.output()) ? true : undefined,
    );
    // the request in flight holds the graceful stop: the process waits, its connection open
    expect(ended).toBe(false);
    expect(heldClosed).toBe(false);

    process.kill(process_.pid, 'SIGTERM');
    const exit = await process_.exited;
    // 143, not the graceful stop's 0: the second signal ended it without waiting
    expect(exit.code).toBe(143);
    const line = process_
      .output()
      .split('\n')
      .find((l) => l.includes('SIGTERM again'));
    expect(JSON.parse(line!)).toMatchObject({ level: 'warn' });
  });

  it('exits 0 after a single SIGTERM once the work in flight is done', async () => {
    const process_ = await start();
    process.kill(process_.pid, 'SIGTERM');
    const exit = await process_.exited;
    expect(exit.code).toBe(0);
  });
});
