import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signWebhook } from '@incident-desk/incident-api';
import type { Express } from 'express';
import { buildApp } from './http/app';
import { FaultInjector } from './http/faults';
import { seedDemo } from './state/seed';
import { SandboxStore } from './state/store';
import { WebhookDispatcher } from './webhooks/dispatcher';

export interface IncidentSandboxOptions {
  /** Load the deterministic demo data on start (and on reset). Default true. */
  seed?: boolean;
  /** Delay before the first webhook delivery attempt. Default 1000 ms. */
  webhookDelayMs?: number;
  /** Waits before each webhook retry. Default [2000, 10000, 60000, 300000]. */
  webhookRetryDelaysMs?: readonly number[];
  /** A receiver slower than this fails the attempt. Default 5000 ms (the spec's limit). */
  webhookTimeoutMs?: number;
  /** Source of "now" for timestamps, credit expiry and signatures. Default the system clock. */
  clock?: () => Date;
  /** JSON file mirroring the state after every change, reloaded on start. Default none (in memory). */
  dataFile?: string;
  /** Base of the dashboard links a report returns. */
  dashboardUrl?: string;
  /** fetch used for webhook deliveries. Default global fetch. */
  fetch?: typeof fetch;
}

export interface ListeningSandbox {
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface IncidentSandbox {
  app: Express;
  store: SandboxStore;
  faults: FaultInjector;
  dispatcher: WebhookDispatcher;
  listen(port?: number, host?: string): Promise<ListeningSandbox>;
  /** Resolves once no webhook delivery is scheduled or in flight. */
  idle(): Promise<void>;
  reset(seed?: boolean): void;
  close(): Promise<void>;
}

export function createIncidentSandbox(options: IncidentSandboxOptions = {}): IncidentSandbox {
  const clock = options.clock ?? (() => new Date());
  const store = new SandboxStore({ clock, dataFile: options.dataFile });
  const faults = new FaultInjector();
  const dispatcher = new WebhookDispatcher(store, {
    deliveryDelayMs: options.webhookDelayMs ?? 1000,
    retryDelaysMs: options.webhookRetryDelaysMs ?? [2000, 10_000, 60_000, 300_000],
    receiverTimeoutMs: options.webhookTimeoutMs ?? 5000,
    sign: ({ secret, body, timestamp }) => signWebhook({ secret, body, timestamp }),
    fetch: options.fetch,
  });
  const seedEnabled = options.seed ?? true;

  const reset = (seed = seedEnabled) => {
    store.reset();
    faults.clear();
    if (seed) seedDemo(store);
    store.save();
  };

  if (store.load()) dispatcher.resumePending();
  else reset(seedEnabled);

  let baseUrl = `http://localhost:${process.env.INCIDENT_SANDBOX_PORT ?? 8788}`;
  const app = buildApp({
    store,
    dispatcher,
    faults,
    reset,
    dashboardUrl: options.dashboardUrl ?? 'https://dashboard.incident-service.example',
    baseUrl: () => baseUrl,
  });

  const servers = new Set<Server>();

  const listen = (port = 0, host = '127.0.0.1') =>
    new Promise<ListeningSandbox>((resolve, reject) => {
      const server = createServer(app);
      server.once('error', reject);
      server.listen(port, host, () => {
        servers.add(server);
        const actual = (server.address() as AddressInfo).port;
        const url = `http://${host.includes(':') ? `[${host}]` : host}:${actual}`;
        baseUrl = url;
        resolve({
          url,
          port: actual,
          close: () =>
            new Promise<void>((done) => {
              servers.delete(server);
              server.close(() => done());
              server.closeAllConnections();
            }),
        });
      });
    });

  return {
    app,
    store,
    faults,
    dispatcher,
    listen,
    idle: () => dispatcher.idle(),
    reset,
    close: async () => {
      dispatcher.close();
      await Promise.all(
        [...servers].map(
          (server) =>
            new Promise<void>((done) => {
              server.close(() => done());
              server.closeAllConnections();
            }),
        ),
      );
      servers.clear();
    },
  };
}
