// One "connector process" for accounts-refresh-processes.test.ts: opens the shared PostgreSQL
// schema, builds the real token provider for one account, says `ready`, waits for a line on stdin
// (the parent releases every child at once), makes one Zendesk API call (users/me) and prints what
// it sent and got as one JSON line. Run as `node --import tsx refresh-child.ts`.
//
// Environment: DATABASE_URL (with ?schema=), SECRETS_KEYS, ZENDESK_BASE_URL_TEMPLATE,
// ZENDESK_CLIENT_ID, ZENDESK_CLIENT_SECRET, ACCOUNT_ID, SUBDOMAIN.
import { createInterface } from 'node:readline';
import { openDatabase } from '@incident-desk/db';
import { ZendeskClient } from '@incident-desk/zendesk-api';
import { ZZendeskOAuthConfig, zendeskBaseUrl } from '../../src/accounts/zendesk-oauth-config';
import { createZendeskTokenProvider } from '../../src/accounts/zendesk-token-provider';
import { createSecretBox, parseSecretKeys } from '../../src/secrets/secret-box';

/** One HTTP request this process made to Zendesk. */
interface ChildCall {
  path: string;
  status: number;
  /** The bearer token of an API call. */
  bearer?: string;
  /** The grant type of a token request. */
  grant?: string;
}

export interface ChildReport {
  ok: boolean;
  /** users/me's id when the call succeeded. */
  userId?: number;
  error?: string;
  calls: ChildCall[];
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

function grantOf(body: RequestInit['body']): string | undefined {
  if (typeof body === 'string') {
    try {
      return (JSON.parse(body) as { grant_type?: string }).grant_type;
    } catch {
      return new URLSearchParams(body).get('grant_type') ?? undefined;
    }
  }
  if (body instanceof URLSearchParams) return body.get('grant_type') ?? undefined;
  return undefined;
}

async function main(): Promise<void> {
  const subdomain = required('SUBDOMAIN');
  const db = await openDatabase({ databaseUrl: required('DATABASE_URL'), poolSize: 3 });
  const keys = parseSecretKeys(required('SECRETS_KEYS'));
  const secretBox = createSecretBox(keys, keys[0]!.id);
  const oauth = ZZendeskOAuthConfig.parse({
    clientId: required('ZENDESK_CLIENT_ID'),
    clientSecret: required('ZENDESK_CLIENT_SECRET'),
    redirectUri: 'http://127.0.0.1/oauth/callback',
    baseUrlTemplate: required('ZENDESK_BASE_URL_TEMPLATE'),
  });

  const calls: ChildCall[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname;
    const response = await fetch(input, init);
    const authorization = request.headers.get('authorization');
    calls.push({
      path,
      status: response.status,
      ...(authorization?.startsWith('Bearer ') ? { bearer: authorization.slice(7) } : {}),
      ...(path.endsWith('/oauth/tokens') ? { grant: grantOf(init?.body) } : {}),
    });
    return response;
  };

  const tokenProvider = createZendeskTokenProvider({
    db,
    secretBox,
    oauth,
    accountId: required('ACCOUNT_ID'),
    subdomain,
    fetch: recordingFetch,
  });
  const client = new ZendeskClient({
    baseUrl: zendeskBaseUrl(oauth.baseUrlTemplate, subdomain),
    tokenProvider,
    fetch: recordingFetch,
    retry: false,
  });

  const lines = createInterface({ input: process.stdin });
  const released = new Promise<void>((resolve) => lines.once('line', () => resolve()));
  process.stdout.write('ready\n');
  await released;
  lines.close();

  let report: ChildReport;
  try {
    const me = await client.users.me();
    report = { ok: true, userId: me.id, calls };
  } catch (error) {
    report = { ok: false, error: `${(error as Error).name}: ${(error as Error).message}`, calls };
  }
  process.stdout.write(`${JSON.stringify(report)}\n`);
  await db.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`refresh child failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
