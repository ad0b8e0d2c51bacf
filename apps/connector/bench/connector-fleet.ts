// The deployment a many-account benchmark measures: both sandboxes as processes, a fresh database
// (a PostgreSQL schema or a PGlite folder), connector instances (src/main.ts child processes with
// production worker settings) behind one round-robin address, at which every webhook of both
// sandboxes is registered so instances can come and go, and accounts installed through the
// connector's own install path. Everything it starts is on the run's cleanup stack.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { progress, withRetries } from '../../../scripts/bench-support';
import {
  connectorDatabase,
  connectorProcessEnv,
  freePort,
  newSecretsKeys,
  startConnectorProcess,
  type ConnectorDatabase,
  type ConnectorProcess,
  type ConnectorProcessOptions,
} from '../test/support/connector-process';
import { startProcessSandboxes } from '../test/support/process-sandboxes';
import { startRoundRobinProxy } from '../test/support/round-robin-proxy';
import type { Backend } from '../test/support/test-database';
import { whileChildWorks } from './child-progress';
import type { CleanupStack } from './cleanup-stack';
import { installAccounts, type InstalledAccount } from './install-accounts';
import { benchControls, type SandboxControls } from './linked-tickets';
import {
  startResourceSampler,
  withApplicationName,
  type ResourceSampler,
} from './resource-sampler';

/** How long the connector's queues may take to be idle before a wait gives up on that check. */
const QUIET_TIMEOUT_MS = 120_000;

export interface ConnectorFleet {
  /** The run's temporary folder (PGlite's data among it). */
  dir: string;
  sandboxes: Awaited<ReturnType<typeof startProcessSandboxes>>;
  database: ConnectorDatabase;
  /** The running instances by label. */
  instances: Map<string, ConnectorProcess>;
  /** Starts an instance (under --cpu-prof into `profileDir` when given) and tracks it. */
  startInstance(label: string, options?: { profileDir?: string }): Promise<ConnectorProcess>;
  /** SIGKILLs an instance, as a crash would. */
  killInstance(label: string): Promise<void>;
  /** Stops every instance gracefully (SIGTERM: a profiled one writes its profile as it exits). */
  stopAll(): Promise<ConnectorProcess[]>;
  /** Routes the single address to these instances (default: every running one). */
  route(labels?: readonly string[]): void;
  /** Resolves when the connector's queues are idle (or logs why it could not tell). */
  queuesIdle(): Promise<void>;
  /** Installs the accounts through the connector's install path. */
  install(subdomains: readonly string[]): Promise<InstalledAccount[]>;
  /** Samples the instances' RSS and, on PostgreSQL, their connections, until the run's cleanup. */
  sampleResources(): Promise<ResourceSampler>;
  /** Each installed account's sandbox controls. */
  controlsOf(subdomain: string): SandboxControls;
}

export async function startConnectorFleet(input: {
  /** The benchmark's name: its folder, schema and PostgreSQL application names carry it. */
  name: string;
  target: Backend;
  runId: string;
  cleanups: CleanupStack;
}): Promise<ConnectorFleet> {
  const { name, target, cleanups } = input;
  const log = progress.log;
  const dir = mkdtempSync(path.join(tmpdir(), `incident-desk-${name}-bench-`));
  cleanups.push('temporary folder', async () => rmSync(dir, { recursive: true, force: true }));
  const sandboxes = await startProcessSandboxes();
  cleanups.push('sandboxes', () => sandboxes.close());
  const database = connectorDatabase(target, dir, `bench_${name}`);
  cleanups.push('database', () => database.drop());
  const proxy = await startRoundRobinProxy([]);
  cleanups.push('proxy', () => proxy.close());
  const instances = new Map<string, ConnectorProcess>();
  cleanups.push('connector instances', async () => {
    await Promise.all([...instances.values()].map((instance) => instance.stop()));
  });

  const secretsKeys = newSecretsKeys();
  const applicationNamePrefix = `bench_${name}_${input.runId}_`;
  const instanceOptions = (
    port: number,
    label: string,
    profileDir?: string,
  ): ConnectorProcessOptions => ({
    port,
    zendeskUrl: sandboxes.zendeskUrl,
    incidentUrl: sandboxes.incidentUrl,
    database,
    secretsKeys,
    publicUrl: proxy.url,
    demo: false,
    jobTimeoutSeconds: 300,
    extraEnv: {
      WORKER_POLL_INTERVAL_SECONDS: '2',
      ...(profileDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}` } : {}),
      ...(database.env.DATABASE_URL
        ? {
            DATABASE_URL: withApplicationName(
              database.env.DATABASE_URL,
              applicationNamePrefix + label,
            ),
          }
        : {}),
    },
  });
  const controls = new Map<string, SandboxControls>();

  return {
    dir,
    sandboxes,
    database,
    instances,
    async startInstance(label, options = {}) {
      const instance = await whileChildWorks(`${target}: starting ${label}`, async () =>
        startConnectorProcess(instanceOptions(await freePort(), label, options.profileDir)),
      );
      cleanups.trackPid(instance.pid);
      instances.set(label, instance);
      return instance;
    },
    async killInstance(label) {
      const instance = instances.get(label)!;
      await instance.kill();
      instances.delete(label);
      cleanups.untrackPid(instance.pid);
    },
    async stopAll() {
      proxy.setTargets([]);
      const stopping = [...instances.values()];
      instances.clear();
      await whileChildWorks(
        `${target}: stopping the instances`,
        () =>
          Promise.all(
            stopping.map(async (instance) => {
              await instance.stop(120_000);
              cleanups.untrackPid(instance.pid);
              return instance.exited;
            }),
          ),
        { pids: () => stopping.map((instance) => instance.pid) },
      );
      return stopping;
    },
    route(labels = [...instances.keys()]) {
      proxy.setTargets(labels.map((label) => instances.get(label)!.url));
    },
    queuesIdle: () =>
      withRetries('connector healthz', () =>
        [...instances.values()][0]!.queuesIdle(QUIET_TIMEOUT_MS),
      ).catch((error: unknown) => log(`${target}: ${String(error)}`)),
    async install(subdomains) {
      const accounts = await installAccounts({
        zendeskSandbox: sandboxes.zendeskSandbox,
        zendeskUrl: sandboxes.zendeskUrl,
        incidentUrl: sandboxes.incidentUrl,
        connectorEnv: connectorProcessEnv(
          instanceOptions(0, 'install'),
          randomBytes(16).toString('hex'),
        ),
        subdomains: [...subdomains],
      });
      for (const account of accounts)
        controls.set(account.subdomain, benchControls({ ...sandboxes, seed: account.seed }));
      return accounts;
    },
    async sampleResources() {
      const sampler = await startResourceSampler({
        processes: () => [...instances].map(([label, instance]) => ({ label, pid: instance.pid })),
        ...(target === 'postgres'
          ? { postgres: { url: process.env.DATABASE_URL!, applicationNamePrefix } }
          : {}),
      });
      cleanups.push('resource sampler', async () => void (await sampler.stop()));
      return sampler;
    },
    controlsOf(subdomain) {
      const found = controls.get(subdomain);
      if (!found) throw new Error(`${subdomain} is not an installed account of this run`);
      return found;
    },
  };
}
