// Many installed accounts at once, each the way the connector's zero-configuration demo installs
// `demo` (src/demo/run-demo.ts): a Zendesk account seeded in the sandbox, an incident client of its
// own with an API key (the incident sandbox's control API), then, in the connector's database and
// through the connector's own modules, the client-credentials grant, the incident connection and a
// real setup against both sandboxes (ticket fields, webhook, triggers, incident subscription).
//
// Why not the marketplace's OAuth install: each account would need a browser-style authorization,
// then an admin sign-in (a second authorization) to save its incident key on the admin page, and
// setup as a queued job: several minutes for 200 accounts, none of it what a benchmark of the
// steady state measures. This writes the same rows through the same functions in seconds.
//
// The connector is opened in this process with the configuration its instances load (the worker
// off, nothing listening), so on PGlite this must finish before an instance opens the folder.
import { seedDemo, type DemoSeed, type ZendeskSandbox } from '@incident-desk/zendesk-sandbox';
import { progress, withRetries } from '../../../scripts/bench-support';
import { createConnector } from '../src/app';
import { loadConfig } from '../src/config/config';
import { runDemo } from '../src/demo/run-demo';

export interface InstalledAccount {
  subdomain: string;
  seed: DemoSeed;
  /** The connector's id of the account. */
  accountId: string;
  /** Its own incident client, whose subscription receives its events. */
  incidentClientId: string;
}

export interface InstallAccountsInput {
  zendeskSandbox: ZendeskSandbox;
  zendeskUrl: string;
  incidentUrl: string;
  /** What the connector's instances run with (connectorProcessEnv); the worker is turned off here. */
  connectorEnv: Record<string, string>;
  subdomains: readonly string[];
  /** Accounts set up at the same time. Default 8. */
  concurrency?: number;
}

/**
 * Creates a record through the incident sandbox's control API. Tried again on a failed connection;
 * a retry's 409 is the first attempt's record, stored before its answer was lost.
 */
async function control(url: string, body: unknown): Promise<void> {
  await withRetries('sandbox control', async (attempt) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok && !(response.status === 409 && attempt > 1))
      throw new Error(`POST ${url}: ${response.status} ${text}`);
  });
}

/** Runs `work` over `items`, at most `concurrency` at a time; the first failure rejects. */
async function eachLimited<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
}

export async function installAccounts(input: InstallAccountsInput): Promise<InstalledAccount[]> {
  const iControl = `${input.incidentUrl}/_sandbox`;
  const pending: Omit<InstalledAccount, 'accountId'>[] = [];
  const installed: InstalledAccount[] = [];
  const total = input.subdomains.length;
  const restore = progress.doing(
    () =>
      `installing accounts: ${pending.length} of ${total} incident clients, ${installed.length} set up`,
  );
  try {
    await createClients(input, iControl, pending);
    await setUpAll(input, pending, installed, iControl);
  } finally {
    restore();
  }
  const order = new Map(input.subdomains.map((subdomain, index) => [subdomain, index]));
  return installed.sort((a, b) => order.get(a.subdomain)! - order.get(b.subdomain)!);
}

async function createClients(
  input: InstallAccountsInput,
  iControl: string,
  pending: Omit<InstalledAccount, 'accountId'>[],
): Promise<void> {
  for (const subdomain of input.subdomains) {
    const seed = seedDemo(input.zendeskSandbox, subdomain);
    const incidentClientId = `cl_${subdomain.replace(/[^a-z0-9]/g, '_')}`;
    await control(`${iControl}/clients`, {
      id: incidentClientId,
      name: `Tenant ${subdomain}`,
      credits: 'unlimited',
    });
    pending.push({ subdomain, seed, incidentClientId });
  }
}

async function setUpAll(
  input: InstallAccountsInput,
  pending: readonly Omit<InstalledAccount, 'accountId'>[],
  installed: InstalledAccount[],
  iControl: string,
): Promise<void> {
  const lines: string[] = [];
  const config = loadConfig({ ...input.connectorEnv, CONNECTOR_WORKER: 'off', DEMO: 'false' });
  const connector = await createConnector(config, {
    log: (line) => {
      lines.push(line);
      if (lines.length > 50) lines.shift();
    },
  });
  try {
    await eachLimited(pending, input.concurrency ?? 8, async (account) => {
      const apiKey = `sbx_key_bench_${account.incidentClientId}`;
      await control(`${iControl}/keys`, { key: apiKey, clientId: account.incidentClientId });
      const { accountId, setup } = await runDemo({
        db: connector.db,
        secretBox: connector.secretBox,
        accounts: connector.accounts,
        oauth: config.oauth,
        demo: {
          zendeskSandboxUrl: input.zendeskUrl,
          incidentSandboxUrl: input.incidentUrl,
          subdomain: account.subdomain,
          incidentApiKey: apiKey,
          incidentClientId: account.incidentClientId,
          incidentSubClientIds: [],
        },
        connectorUrl: config.publicUrl,
        log: () => undefined,
      });
      if (!setup.ok) {
        const failed = setup.steps.filter((step) => step.outcome === 'failed');
        throw new Error(
          `setup of ${account.subdomain} failed: ${failed.map((s) => `${s.step} ${s.target}: ${s.message ?? ''}`).join('; ')}`,
        );
      }
      installed.push({ ...account, accountId });
    });
  } catch (error) {
    throw new Error(`${(error as Error).message}\n--- connector log ---\n${lines.join('\n')}`, {
      cause: error,
    });
  } finally {
    await connector.close();
  }
}
