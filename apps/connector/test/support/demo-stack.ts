// The zero-configuration demo in the test process, as app-demo and demo-restart play it: both
// sandboxes on port 0 (or the ports of an earlier start), seeded for the demo, the demo's
// configuration pointing at them, and the demo bootstrap run against the composed connector.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createIncidentSandbox, type IncidentSandbox } from '@incident-desk/incident-sandbox';
import {
  createZendeskSandbox,
  DEMO_GLOBAL_CLIENT,
  seedDemo,
  type DemoSeed,
  type ZendeskSandbox,
} from '@incident-desk/zendesk-sandbox';
import type { Connector } from '../../src/app';
import { loadConfig, type ConnectorConfig } from '../../src/config/config';
import { runDemo, type DemoResult } from '../../src/demo/run-demo';

const silent = () => undefined;

/** A JSON answer, or an error naming the request and the answer's status and text. */
export async function json(url: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    ...init,
    headers: { 'content-type': 'application/json', ...init.headers },
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

export interface DemoSandboxes {
  incident: IncidentSandbox;
  zendesk: ZendeskSandbox;
  /** The seed the demo account started from (this start's, or the one its state file kept). */
  seed: DemoSeed | undefined;
  incidentUrl: string;
  zendeskUrl: string;
  /** The connector first, then the sandboxes: as Ctrl-C under `npm start`. */
  close(): Promise<void>;
}

/**
 * Both sandboxes listening, the Zendesk one seeded for the demo unless its state file already
 * holds the account (as its main does). `stateDir` keeps their state in files there; `fetchOf`
 * sends each one's webhook deliveries.
 */
export async function startDemoSandboxes(
  options: {
    stateDir?: string;
    ports?: { incident: number; zendesk: number };
    fetchOf?: (source: 'incident' | 'zendesk') => typeof fetch;
  } = {},
): Promise<DemoSandboxes> {
  const { stateDir, fetchOf } = options;
  const incident = createIncidentSandbox({
    ...(stateDir ? { dataFile: path.join(stateDir, 'sandbox', 'incident.json') } : {}),
    webhookDelayMs: 5,
    webhookRetryDelaysMs: [100, 500],
    ...(fetchOf ? { fetch: fetchOf('incident') } : {}),
  });
  const zendesk = createZendeskSandbox({
    ...(stateDir ? { stateFile: path.join(stateDir, 'sandbox', 'zendesk.json') } : {}),
    searchLagMs: 0,
    globalClients: [{ ...DEMO_GLOBAL_CLIENT, redirect_uris: ['http://127.0.0.1/oauth/callback'] }],
    webhooks: {
      retryDelaysMs: [20, 50, 100],
      ...(fetchOf ? { fetch: fetchOf('zendesk') } : {}),
    },
  });
  const seed = zendesk.state.account('demo') ? undefined : seedDemo(zendesk);
  const incidentServer = await incident.listen(options.ports?.incident ?? 0);
  const zendeskServer = await zendesk.listen(options.ports?.zendesk ?? 0);
  return {
    incident,
    zendesk,
    seed,
    incidentUrl: incidentServer.url.replace(/\/+$/, ''),
    zendeskUrl: zendeskServer.url.replace(/\/+$/, ''),
    async close() {
      await zendeskServer.close();
      await incident.close();
    },
  };
}

/**
 * The demo's configuration against the sandboxes: `databaseEnv` is PGLITE_DIR or DATABASE_URL,
 * the secret keys are kept in `dir`.
 */
export function demoConfig(
  sandboxes: Pick<DemoSandboxes, 'incidentUrl' | 'zendeskUrl'>,
  dir: string,
  databaseEnv: Record<string, string>,
): ConnectorConfig {
  const loaded = loadConfig(
    {
      NODE_ENV: 'test',
      DEMO: 'true',
      CONNECTOR_PORT: '0',
      ZENDESK_BASE_URL_TEMPLATE: `${sandboxes.zendeskUrl}/_z/{subdomain}`,
      INCIDENT_API_URL: sandboxes.incidentUrl,
      WORKER_POLL_INTERVAL_SECONDS: '0.5',
      SHUTDOWN_TIMEOUT_MS: '15000',
      ...databaseEnv,
    },
    { secretKeysFile: path.join(dir, 'secret-keys.json'), log: silent },
  );
  return { ...loaded, demo: { ...loaded.demo!, zendeskSandboxUrl: sandboxes.zendeskUrl } };
}

/** A stand-in for the built sidebar in `dir`, whose page the connector serves. */
export function sidebarStandIn(dir: string): string {
  const sidebarDist = path.join(dir, 'sidebar-dist');
  mkdirSync(path.join(sidebarDist, 'assets'), { recursive: true });
  writeFileSync(
    path.join(sidebarDist, 'assets', 'iframe.html'),
    '<!doctype html><html><head></head><body></body></html>',
  );
  return sidebarDist;
}

/** The demo bootstrap (connect the demo account, run its setup) against the listening connector. */
export function runDemoOn(
  connector: Connector,
  config: ConnectorConfig,
  connectorUrl: string,
): Promise<DemoResult> {
  return runDemo({
    db: connector.db,
    secretBox: connector.secretBox,
    accounts: connector.accounts,
    oauth: config.oauth,
    demo: config.demo!,
    connectorUrl,
    log: silent,
  });
}
