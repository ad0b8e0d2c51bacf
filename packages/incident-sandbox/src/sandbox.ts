import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signWebhook } from '@incident-desk/incident-api';
import type { Express } from 'express';
import { buildApp } from './http/app';
import { FaultInjector } from './http/faults';
import { seedDemo } from './state/seed';
import { seedHistory } from './state/seed-history';
import type { TFidelitySettings } from './state/model';
import { SandboxStore, type TDataFileOutcome } from './state/store';
import { WebhookDispatcher } from './webhooks/dispatcher';

const IDLE_CONNECTION_MS = 65_000;

export interface IncidentSandboxOptions {
  /** Load the deterministic demo data on start (and on reset). Default true. */
  seed?: boolean;
  /**
   * With the demo data, twelve weeks of past incidents dated back from the clock (takedowns across
   * registrars and hosting providers, blocklists, incidents waiting on the customer) for the
   * connector's analytics. Default false; `npm start` and the e2e stack turn it on.
   */
  seedHistory?: boolean;
  /** Delay before the first webhook delivery attempt. Default 1000 ms. */
  webhookDelayMs?: number;
  /** Waits before each webhook retry. Default [2000, 10000, 60000, 300000]. */
  webhookRetryDelaysMs?: readonly number[];
  /** A receiver slower than this fails the attempt. Default 5000 ms (the spec's limit). */
  webhookTimeoutMs?: number;
  /** Source of "now" for timestamps, credit expiry and signatures. Default the system clock. */
  clock?: () => Date;
  /**
   * JSON file the state is kept in: loaded on start (an unusable one is set aside and the sandbox
   * starts fresh), written shortly after changes and on close. Default none (in memory).
   */
  dataFile?: string;
  /** Wait after a change before the data file is written. Default 200 ms. */
  saveDelayMs?: number;
  /** Base of the dashboard links a report returns. */
  dashboardUrl?: string;
  /** fetch used for webhook deliveries. Default global fetch. */
  fetch?: typeof fetch;
  /**
   * Fidelity behaviours, applied on start and on every reset; changeable at run time through
   * PATCH /_sandbox/settings. Defaults: all off (status always sent, events in emission order after
   * webhookDelayMs, attempts on resolutions at once), so tests stay deterministic.
   */
  fidelity?: Partial<TFidelitySettings>;
  /** Source of chance for the fidelity behaviours. Default Math.random. */
  random?: () => number;
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
  /** What opening the data file found; null in memory. */
  dataFile: TDataFileOutcome | null;
  /** Stops deliveries and servers, then writes the data file a last time and releases it. */
  close(): Promise<void>;
}

export function createIncidentSandbox(options: IncidentSandboxOptions = {}): IncidentSandbox {
  const clock = options.clock ?? (() => new Date());
  const store = new SandboxStore({
    clock,
    ...(options.dataFile === undefined ? {} : { dataFile: options.dataFile }),
    ...(options.saveDelayMs === undefined ? {} : { saveDelayMs: options.saveDelayMs }),
  });
  const faults = new FaultInjector();
  const dispatcher = new WebhookDispatcher(store, {
    deliveryDelayMs: options.webhookDelayMs ?? 1000,
    retryDelaysMs: options.webhookRetryDelaysMs ?? [2000, 10_000, 60_000, 300_000],
    receiverTimeoutMs: options.webhookTimeoutMs ?? 5000,
    sign: ({ secret, body, timestamp }) => signWebhook({ secret, body, timestamp }),
    fetch: options.fetch,
    random: options.random,
  });
  const seedEnabled = options.seed ?? true;

  const reset = (seed = seedEnabled) => {
    store.reset();
    Object.assign(store.state.settings, options.fidelity);
    faults.clear();
    if (seed) seedDemo(store);
    if (seed && options.seedHistory) seedHistory(store);
    store.changed();
  };

  const dataFile = store.open();
  if (dataFile?.kind === 'loaded') dispatcher.resumePending();
  else {
    reset(seedEnabled);
    // a fresh state is on disk at once, so a crash before the first change still leaves one
    store.flush();
  }

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
      // Idle connections kept as a service behind a load balancer keeps them (about a minute),
      // not Node's 5 s: a client whose event loop was busy past 5 s would otherwise send its next
      // request on a socket the server is closing that very moment.
      const server = createServer(
        { keepAliveTimeout: IDLE_CONNECTION_MS, headersTimeout: IDLE_CONNECTION_MS + 1_000 },
        app,
      );
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
    dataFile,
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
      store.close();
    },
  };
}
