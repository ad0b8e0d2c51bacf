// Two PROCESSES refreshing one account's Zendesk token at once make one
// refresh, and both go on with the new token. Two real Node children (test/support/refresh-child.ts)
// share one PostgreSQL schema, each with the connector's real token provider, and are released at
// the same moment to make one API call against the Zendesk sandbox running in this process.
// A refresh rotates the refresh token, so a second refresh with the old one would be refused and
// the account would fall to reauthorization_required: only the cross-process lock prevents that.
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type TDatabase } from '@incident-desk/db';
import { createZendeskSandbox, type ZendeskSandbox } from '@incident-desk/zendesk-sandbox';
import {
  findOrCreateAccount,
  getConnectionStatus,
  storeCredential,
} from '../src/accounts/credential-store';
import { REFRESH_SKEW_MS } from '../src/accounts/zendesk-token-provider';
import { createSecretBox, parseSecretKeys, type SecretBox } from '../src/secrets/secret-box';
import {
  connectorDatabase,
  newSecretsKeys,
  type ConnectorDatabase,
} from './support/connector-process';
import { CHILD_STALL_MS, childProgress } from './support/child-progress';
import { whileProgressing } from './support/eventually';
import type { ChildReport } from './support/refresh-child';
import { secretBinding } from '../src/secrets/secret-bindings';

const CLIENT_ID = 'incident_desk_refresh_test';
const CLIENT_SECRET = 'incident-desk-refresh-test-secret';
const CHILDREN = 2;
/** Far longer than the gap between the children's release on a busy machine. */
const TOKEN_ENDPOINT_LATENCY_MS = 1_000;
const connectorDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const childEntry = path.join('test', 'support', 'refresh-child.ts');
const postgres = Boolean(process.env.DATABASE_URL);

interface Child {
  /** Resolves once it has opened the database and waits for the release line. */
  ready: Promise<void>;
  release(): void;
  /** Its JSON report, once it has made its call. */
  report: Promise<ChildReport>;
  kill(): void;
}

function startChild(env: Record<string, string>): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', childEntry], {
    cwd: connectorDir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const lines = createInterface({ input: child.stdout });
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(`child exited (${code ?? signal})`)),
  );
  // start-up (tsx, Prisma, the pool) takes what it takes on a busy machine: waited for while the
  // child works
  const nextLine = (what: string) =>
    whileProgressing(
      `child ${child.pid}: its ${what}`,
      new Promise<string>((resolve, reject) => {
        lines.once('line', resolve);
        void exited.then((why) => reject(new Error(`${why} before its ${what}`)));
      }),
      { progress: childProgress(child.pid!, () => stderr), stallMs: CHILD_STALL_MS },
    ).catch((error: unknown) => {
      throw new Error(`${(error as Error).message}\n${stderr}`, { cause: error });
    });
  const ready = nextLine('ready line').then((line) => {
    if (line !== 'ready') throw new Error(`child said ${line} instead of ready\n${stderr}`);
  });
  // Listen for the report only once ready has been read, so the two lines are not confused.
  const report = ready
    .then(() => nextLine('report'))
    .then((line) => JSON.parse(line) as ChildReport);
  report.catch(() => undefined);
  return {
    ready,
    release: () => child.stdin.write('go\n'),
    report,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

describe.runIf(postgres)('two processes refreshing one account on one PostgreSQL', () => {
  let sandbox: ZendeskSandbox;
  let sandboxUrl: string;
  let closeSandbox: () => Promise<void>;
  let database: ConnectorDatabase;
  let db: TDatabase;
  let secretsKeys: string;
  let secretBox: SecretBox;
  let accounts = 0;
  const started: Child[] = [];

  beforeAll(async () => {
    sandbox = createZendeskSandbox({ searchLagMs: 0 });
    const listening = await sandbox.listen(0);
    sandboxUrl = listening.url.replace(/\/+$/, '');
    closeSandbox = listening.close;
    await control('/oauth/clients', {
      identifier: CLIENT_ID,
      secret: CLIENT_SECRET,
      name: 'incident-desk',
      redirect_uris: ['http://127.0.0.1/oauth/callback'],
    });
    database = connectorDatabase('postgres', tmpdir(), 'refresh_processes');
    // Opening applies the migrations, so the children find the schema ready.
    db = await openDatabase({ databaseUrl: database.env.DATABASE_URL!, poolSize: 2 });
    secretsKeys = newSecretsKeys();
    const keys = parseSecretKeys(secretsKeys);
    secretBox = createSecretBox(keys, keys[0]!.id);
  });

  afterAll(async () => {
    for (const child of started) child.kill();
    await db?.close();
    await database?.drop();
    await closeSandbox?.();
  });

  async function control(route: string, body: unknown): Promise<Record<string, unknown>> {
    const response = await fetch(`${sandboxUrl}/_sandbox${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok)
      throw new Error(`control ${route}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  }

  /**
   * A Zendesk account with an admin, and the connector's credential row for it holding a token pair
   * the sandbox issued to our client, expiring (for both sides) in `expiresIn` seconds.
   */
  async function connectedAccount(expiresIn: number) {
    accounts += 1;
    const subdomain = `refresh${accounts}`;
    const created = await control('/accounts', {
      subdomain,
      users: [{ name: 'Ada Admin', email: `admin@${subdomain}.example`, role: 'admin' }],
    });
    const adminId = (created.users as { id: number }[])[0]!.id;
    const issuedAt = Date.now();
    const issued = await control(`/accounts/${subdomain}/tokens`, {
      user_id: adminId,
      client_id: CLIENT_ID,
      scopes: 'read write',
      expires_in: expiresIn,
    });
    const accountId = await findOrCreateAccount(db, subdomain);
    const original = {
      accessToken: issued.access_token as string,
      refreshToken: issued.refresh_token as string,
    };
    await storeCredential(db, secretBox, {
      accountId,
      grant: 'authorization_code',
      clientId: CLIENT_ID,
      tokens: {
        ...original,
        scope: 'read write',
        accessExpiresAt: new Date(issuedAt + expiresIn * 1000),
        refreshExpiresAt: new Date(issuedAt + 2_592_000_000),
      },
    });
    return { subdomain, accountId, adminId, original };
  }

  /** The token records the sandbox holds for our client on this account, oldest first. */
  const sandboxTokens = (subdomain: string) =>
    sandbox.state.tokens.filter(
      (t) => t.subdomain === subdomain && t.client_identifier === CLIENT_ID,
    );

  /** Starts the children, waits until each is ready, then releases them all in one go. */
  async function raceChildren(accountId: string, subdomain: string): Promise<ChildReport[]> {
    const env = {
      DATABASE_URL: database.env.DATABASE_URL!,
      SECRETS_KEYS: secretsKeys,
      ZENDESK_BASE_URL_TEMPLATE: `${sandboxUrl}/_z/{subdomain}`,
      ZENDESK_CLIENT_ID: CLIENT_ID,
      ZENDESK_CLIENT_SECRET: CLIENT_SECRET,
      ACCOUNT_ID: accountId,
      SUBDOMAIN: subdomain,
    };
    // A slow token endpoint holds the refresh open long enough that, without the lock, the other
    // process would surely read the stale row meanwhile and send the same refresh token again.
    await control('/faults', {
      subdomain,
      method: 'POST',
      path: '/oauth/tokens',
      kind: 'latency',
      latency_ms: TOKEN_ENDPOINT_LATENCY_MS,
    });
    const children = Array.from({ length: CHILDREN }, () => startChild(env));
    started.push(...children);
    await Promise.all(children.map((c) => c.ready));
    for (const child of children) child.release();
    return Promise.all(children.map((c) => c.report));
  }

  async function oldRefreshTokenAnswer(subdomain: string, refreshToken: string) {
    const response = await fetch(`${sandboxUrl}/_z/${subdomain}/oauth/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
      }),
    });
    return { status: response.status, body: (await response.json()) as { error?: string } };
  }

  /** What every variant asserts once the children are done. */
  async function expectOneRefresh(
    account: Awaited<ReturnType<typeof connectedAccount>>,
    reports: ChildReport[],
  ) {
    const { subdomain, accountId, adminId, original } = account;
    for (const report of reports)
      expect(report, JSON.stringify(report)).toMatchObject({ ok: true, userId: adminId });

    // The sandbox issued exactly one token pair after the original, by one refresh_token grant,
    // and no other token request was made (a refused second grant would show here).
    const records = sandboxTokens(subdomain);
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({ access_token: original.accessToken, revoked: true });
    const renewed = records[1]!;
    expect(renewed.revoked).toBe(false);
    const grants = reports.flatMap((r) => r.calls.filter((c) => c.grant !== undefined));
    expect(grants).toEqual([expect.objectContaining({ grant: 'refresh_token', status: 200 })]);

    // Both calls succeeded with the one new access token.
    const successes = reports.map((r) =>
      r.calls.filter((c) => c.path.endsWith('/users/me.json') && c.status === 200),
    );
    for (const calls of successes)
      expect(calls.map((c) => c.bearer)).toEqual([renewed.access_token]);

    // The rotated pair is what the database holds, and the account is still usable.
    const row = await db.prisma.zendeskCredential.findUniqueOrThrow({ where: { accountId } });
    expect(
      await secretBox.open(row.sealedAccessToken, secretBinding.zendeskAccessToken(accountId)),
    ).toBe(renewed.access_token);
    expect(
      await secretBox.open(row.sealedRefreshToken!, secretBinding.zendeskRefreshToken(accountId)),
    ).toBe(renewed.refresh_token);
    const status = await getConnectionStatus(db, accountId);
    expect(status.state).toBe('active');
    expect(status.lastError).toBeNull();
    expect(status.accessExpiresAt!.getTime() - Date.now()).toBeGreaterThan(REFRESH_SKEW_MS);

    // The old refresh token is dead.
    expect(await oldRefreshTokenAnswer(subdomain, original.refreshToken)).toEqual({
      status: 400,
      body: expect.objectContaining({ error: 'invalid_grant' }),
    });
  }

  it('an access token within 5 minutes of expiry: one refresh_token grant, both processes call Zendesk with the new token', async () => {
    // 300 s is the shortest lifetime Zendesk grants: by the time a child reads it, less than
    // REFRESH_SKEW_MS remains, so each child's provider decides to refresh before its call.
    const account = await connectedAccount(REFRESH_SKEW_MS / 1000);
    const reports = await raceChildren(account.accountId, account.subdomain);
    await expectOneRefresh(account, reports);
    // Neither child ever sent the old token: both refreshed (or waited) before calling.
    for (const report of reports) {
      expect(report.calls.filter((c) => c.status === 401)).toEqual([]);
    }
  });

  it('a revoked access token answered 401 to both processes at once: one refresh, both retry with the new token', async () => {
    const account = await connectedAccount(1_800);
    // Zendesk stops accepting the access token (its refresh token stays good) while the
    // connector's row still calls it fresh: each child's first call is refused.
    await control('/tokens/expire', { token: account.original.accessToken, which: 'access' });
    const reports = await raceChildren(account.accountId, account.subdomain);
    await expectOneRefresh(account, reports);
    for (const report of reports) {
      const apiCalls = report.calls.filter((c) => c.path.endsWith('/users/me.json'));
      expect(apiCalls.map((c) => [c.status, c.bearer === account.original.accessToken])).toEqual([
        [401, true],
        [200, false],
      ]);
    }
  });
});

describe.skipIf(postgres)('two processes refreshing one account', () => {
  it.skip('needs DATABASE_URL: PGlite serves one process, so two processes cannot share it', () => {});
});
