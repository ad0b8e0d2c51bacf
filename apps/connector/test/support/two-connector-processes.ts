// Two real connector processes on one PostgreSQL schema behind a round-robin proxy, the address
// the sandboxes' webhooks were registered with, so the real senders' deliveries reach either: the
// set-up of the worker and writer process tests. PGlite is one process by design (its data folder
// is locked to its holder), so PostgreSQL only.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  connectorDatabase,
  freePort,
  newSecretsKeys,
  startConnectorProcess,
  type ConnectorDatabase,
  type ConnectorProcess,
  type ConnectorProcessOptions,
} from './connector-process';
import { startProcessSandboxes, type ProcessSandboxes } from './process-sandboxes';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy';

export interface TwoConnectorProcesses {
  sandboxes: ProcessSandboxes;
  /** Their schema (query reads it while they run). */
  database: ConnectorDatabase;
  proxy: RoundRobinProxy;
  /** The running instances: the first set the demo account up; a test may kill, remove or add. */
  instances: ConnectorProcess[];
  /** What every instance starts with but its port, for one the test starts itself. */
  common: Omit<ConnectorProcessOptions, 'port'>;
  /** Each instance's output, for a failed test's message. */
  outputs(): string;
  /** Stops the instances gracefully, then the proxy and sandboxes; drops the schema. */
  close(): Promise<void>;
}

/**
 * The first instance sets the demo account up (its webhooks registered at the proxy), the second
 * joins it on the same schema; then the proxy sends to both in turn.
 */
export async function startTwoConnectorProcesses(
  label: string,
  extraEnv: Record<string, string> = {},
): Promise<TwoConnectorProcesses> {
  const dir = mkdtempSync(path.join(tmpdir(), `incident-desk-${label}-`));
  const sandboxes = await startProcessSandboxes();
  const database = connectorDatabase('postgres', dir, label.replaceAll('-', '_'));
  const proxy = await startRoundRobinProxy([]);
  const common: Omit<ConnectorProcessOptions, 'port'> = {
    zendeskUrl: sandboxes.zendeskUrl,
    incidentUrl: sandboxes.incidentUrl,
    database,
    secretsKeys: newSecretsKeys(),
    publicUrl: proxy.url,
    extraEnv,
  };
  const instances: ConnectorProcess[] = [];
  const close = async () => {
    for (const instance of instances) await instance.stop();
    await proxy.close();
    await sandboxes.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const firstPort = await freePort();
    proxy.setTargets([`http://127.0.0.1:${firstPort}`]);
    instances.push(await startConnectorProcess({ ...common, port: firstPort }));
    instances.push(await startConnectorProcess({ ...common, port: await freePort(), demo: false }));
    proxy.setTargets(instances.map((instance) => instance.url));
  } catch (error) {
    await close();
    throw error;
  }
  return {
    sandboxes,
    database,
    proxy,
    instances,
    common,
    outputs: () =>
      instances
        .map((instance) => `--- connector output (pid ${instance.pid}) ---\n${instance.output()}`)
        .join('\n'),
    close,
  };
}
