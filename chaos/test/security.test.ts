// The security properties of the composed connector, each with a test, on a
// stack with two installed accounts. The sidebar bundle has its own file (sidebar-bundle.test.ts);
// the sidebar's inert rendering is apps/sidebar/test/hostile.test.tsx (jsdom) and
// e2e/tests/hostile-payloads.spec.ts (Chromium), run by reference from scripts/run-chaos.ts.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '@incident-desk/incident-api';
import { signZendeskWebhook } from '@incident-desk/zendesk-api';
import { seedDemo } from '@incident-desk/zendesk-sandbox';
import { INSTALL_STATE_TTL_MS } from '@incident-desk/connector/src/accounts/install-states';
import {
  followCallback,
  startInstall,
  submitApproval,
  type AccountsHarness,
} from '@incident-desk/connector/test/accounts-harness';
import { findingsRecorder } from '../src/findings';
import { writeReportPart } from '../src/report-parts';
import { forgeToken, type TokenTarget } from '../src/forge-token';
import { answerProblems } from '../src/response-check';
import { routesOf } from '../src/routes';
import {
  advanceIncident,
  controlCall,
  eventually,
  sandboxTicket,
  seedIncident,
} from '../src/sandbox-access';
import { backends, startChaosStack, type ChaosStack, type InstalledAccount } from '../src/stack';
import { waitForQuiet } from '../src/quiet';

const TEXT_TYPES = [
  'text',
  'character varying',
  'character',
  'json',
  'jsonb',
  'bytea',
  'ARRAY',
  'USER-DEFINED',
];

/** The forms a leaked secret could take in a column: plain, base64, base64url, hex. */
function encodings(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  return [
    secret,
    bytes.toString('base64').replace(/=+$/, ''),
    bytes.toString('base64url'),
    bytes.toString('hex'),
  ];
}

describe.each(backends)('security properties on %s', (backend) => {
  let stack: ChaosStack;
  let secrets: string[];
  const findings = findingsRecorder(`properties-${backend}`);
  const record = (property: string, test: string, ok: boolean, detail: string) =>
    findings.record({ property, backend, test, ok, detail });

  beforeAll(async () => {
    stack = await startChaosStack(backend);
    await waitForQuiet(stack);
    secrets = await stack.secrets();
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  });

  const tokenTarget = (account: InstalledAccount, other: InstalledAccount): TokenTarget => {
    const key = stack.zendeskSandbox.state.apps.keyOf(stack.config.sidebar.appId);
    return {
      subdomain: account.subdomain,
      installationId: account.installationId,
      foreignSubdomain: other.subdomain,
      foreignInstallationId: other.installationId,
      agentId: account.agent.id,
      foreignAgentId: other.agent.id,
      appKey: key.privateKey,
      publicKeyPem: key.publicKeyPem,
    };
  };

  it('keeps tokens, API keys and webhook secrets unreadable in the raw database (every text, JSON and bytea column)', async () => {
    const schemas = [stack.schemas.app, stack.schemas.boss];
    const columns = await stack.connector.db.prisma.$queryRawUnsafe<
      { table_schema: string; table_name: string; column_name: string; data_type: string }[]
    >(
      `SELECT c.table_schema, c.table_name, c.column_name, c.data_type
         FROM information_schema.columns c
         JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE c.table_schema = ANY($1) AND t.table_type = 'BASE TABLE'`,
      schemas,
    );
    const scanned = columns.filter((c) => TEXT_TYPES.includes(c.data_type));
    const needles = secrets
      .filter((s) => s.length >= 8)
      .flatMap((s) => encodings(s).map((form) => ({ secret: s, form })));
    const hits: string[] = [];
    let values = 0;
    // Known plaintext the scan must find, so a scan that reads nothing cannot pass.
    let sawAccountId = false;
    for (const column of scanned) {
      const rows = await stack.connector.db.prisma.$queryRawUnsafe<{ v: string | null }[]>(
        `SELECT "${column.column_name}"::text AS v FROM "${column.table_schema}"."${column.table_name}"`,
      );
      for (const { v } of rows) {
        if (v === null) continue;
        values += 1;
        if (v.includes(stack.a.accountId)) sawAccountId = true;
        const hex = v.startsWith('\\x') ? v : '';
        for (const { form } of needles) {
          if (v.includes(form) || (hex && hex.includes(Buffer.from(form).toString('hex')))) {
            hits.push(`${column.table_name}.${column.column_name}`);
          }
        }
      }
    }
    record(
      'Tokens, API keys and webhook secrets unreadable in the raw database',
      'keeps tokens, API keys and webhook secrets unreadable in the raw database',
      hits.length === 0 && sawAccountId,
      `${scanned.length} columns of ${new Set(scanned.map((c) => c.table_name)).size} tables, ${values} values, ${secrets.length} secrets in 4 encodings: ${hits.length === 0 ? 'none found' : `found in ${[...new Set(hits)].join(', ')}`}`,
    );
    expect(sawAccountId).toBe(true);
    expect([...new Set(hits)]).toEqual([]);
  });

  it('makes the OAuth state single use and expiring (10 minutes)', async () => {
    const third = seedDemo(stack.zendeskSandbox, 'third');
    const harness = { connectorUrl: stack.url, sandboxUrl: stack.zendeskUrl } as AccountsHarness;
    const credentialOf = async (subdomain: string) =>
      stack.connector.db.prisma.zendeskCredential.findMany({
        where: { account: { zendeskSubdomain: subdomain } },
      });

    // Used once: connected. Used again: refused, nothing changes.
    const first = await startInstall(harness, 'third');
    const state = first.authorizeUrl.searchParams.get('state')!;
    const row = await stack.connector.db.prisma.oAuthInstallState.findUniqueOrThrow({
      where: { state },
    });
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeGreaterThanOrEqual(
      INSTALL_STATE_TTL_MS - 1_000,
    );
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeLessThanOrEqual(
      INSTALL_STATE_TTL_MS + 1_000,
    );
    const callback = await submitApproval(harness, first.approvalPage, 'allow', third.adminId);
    const connected = await followCallback(callback);
    expect(connected.status).toBe(200);
    const stored = JSON.stringify(await credentialOf('third'));
    const replay = await followCallback(callback);
    expect(replay.status).toBe(400);
    expect(await replay.text()).toMatch(/already used/i);
    expect(JSON.stringify(await credentialOf('third'))).toBe(stored);

    // Expired: the state is older than 10 minutes when the admin comes back.
    const late = await startInstall(harness, 'third');
    const lateState = late.authorizeUrl.searchParams.get('state')!;
    const lateCallback = await submitApproval(harness, late.approvalPage, 'allow', third.adminId);
    await stack.connector.db.prisma.oAuthInstallState.update({
      where: { state: lateState },
      data: { expiresAt: new Date(Date.now() - 1_000) },
    });
    const expired = await followCallback(lateCallback);
    expect(expired.status).toBe(400);
    expect(await expired.text()).toMatch(/longer than 10 minutes/i);
    expect(JSON.stringify(await credentialOf('third'))).toBe(stored);

    // Unknown and missing states.
    const forged = new URL(lateCallback);
    forged.searchParams.set('state', 'x'.repeat(43));
    expect((await fetch(forged)).status).toBe(400);
    forged.searchParams.delete('state');
    expect((await fetch(forged)).status).toBe(400);
    record(
      'OAuth state single use and expiring',
      'makes the OAuth state single use and expiring (10 minutes)',
      true,
      'second use 400 "already used"; after expiry 400; unknown and missing 400; credentials unchanged',
    );
  });

  it('scopes every route to one account: each route of the app has a cross-account case, and all are refused', async () => {
    const { a, b } = stack;
    const ticketOfA = a.seed.ticketIds[0]!;
    // A ticket number the other account does not have, so reading it with B's client cannot find A's.
    const onlyInA = Math.max(...a.seed.ticketIds, ...b.seed.ticketIds) + 1_000;
    const aSecrets = secrets.filter(
      (s) =>
        ![
          b.sidebarSession,
          b.incidentApiKey,
          b.zendeskWebhookSecret,
          ...b.incidentSecrets.values(),
        ].includes(s),
    );
    const aMarkers = [a.accountId, ...a.subscriptionIds];
    type Attempt = {
      name: string;
      send: () => Promise<Response>;
      expect: (status: number) => boolean;
    };
    const refused = (status: number) => status >= 400 && status < 500;
    const incidentBody = JSON.stringify({
      id: 'evt_cross_account',
      event: 'incident.renamed',
      data: { incidentId: 'inc_x' },
    });
    const ticketBody = JSON.stringify({
      kind: 'comment',
      ticketId: ticketOfA,
      updatedAt: 'cross-account',
    });
    const [subA] = a.subscriptionIds;
    const [subB] = b.subscriptionIds;
    const post = (path: string, body: string, headers: Record<string, string>) =>
      fetch(`${stack.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
    // a POST carries a valid body, so what refuses it is the account check, not the body's shape
    const sidebar = (method: string, route: string, token: string, ticket: number, body = '{}') =>
      fetch(`${stack.url}/sidebar/tickets/${ticket}${route}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
        },
        ...(method === 'POST' ? { body } : {}),
      });
    // The signed page opens sessions: a ZAF JWT naming another account's installation, account
    // or agent opens none.
    const page = (token: string) =>
      fetch(`${stack.url}/sidebar/app/assets/iframe.html`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token }).toString(),
      });
    const sidebarAttempts = (method: string, route: string, body?: string): Attempt[] => {
      const now = Date.now();
      return [
        {
          name: "a ZAF JWT of A naming B's installation",
          send: () => page(forgeToken('foreign_installation', tokenTarget(a, b), now, 0, null)),
          expect: refused,
        },
        {
          name: "a ZAF JWT of A's installation claiming B's account",
          send: () => page(forgeToken('foreign_subdomain', tokenTarget(a, b), now, 0, null)),
          expect: refused,
        },
        {
          name: "a ZAF JWT of A naming B's agent",
          send: () => page(forgeToken('foreign_agent', tokenTarget(a, b), now, 0, null)),
          expect: refused,
        },
        {
          name: 'a valid ZAF JWT of A, sent to the API instead of a session',
          send: () =>
            sidebar(
              method,
              route,
              forgeToken('valid', tokenTarget(a, b), now, 0, null),
              ticketOfA,
              body,
            ),
          expect: refused,
        },
        {
          name: "B's valid session for a ticket only A has",
          send: () => sidebar(method, route, b.sidebarSession, onlyInA, body),
          expect: refused,
        },
      ];
    };
    const threatOfA = JSON.stringify({ value: 'https://only-in-a.example/x', mode: 'takedown' });
    const sidebarRoutes: Record<string, [string, string, string?]> = {
      'GET /sidebar/tickets/:ticketId': ['GET', ''],
      'POST /sidebar/tickets/:ticketId/approve-takedown': ['POST', '/approve-takedown'],
      'POST /sidebar/tickets/:ticketId/actions/:action': ['POST', '/actions/takedown'],
      'POST /sidebar/tickets/:ticketId/report': ['POST', '/report'],
      'POST /sidebar/tickets/:ticketId/retry-link': ['POST', '/retry-link'],
      'POST /sidebar/tickets/:ticketId/ticket-updates/retry': ['POST', '/ticket-updates/retry'],
      'POST /sidebar/tickets/:ticketId/forwards/:forwardId/retry': [
        'POST',
        '/forwards/fwd_of_a/retry',
      ],
      'GET /sidebar/tickets/:ticketId/threats': ['GET', '/threats'],
      'GET /sidebar/tickets/:ticketId/duplicates': [
        'GET',
        '/duplicates?value=https%3A%2F%2Fonly-in-a.example%2Fx',
      ],
      'POST /sidebar/tickets/:ticketId/threats/report': ['POST', '/threats/report', threatOfA],
      'POST /sidebar/tickets/:ticketId/link-existing': [
        'POST',
        '/link-existing',
        JSON.stringify({ value: 'https://only-in-a.example/x' }),
      ],
    };
    const noAccountData: Attempt[] = [
      {
        name: 'public: answers without any account data',
        send: () => fetch(`${stack.url}/`),
        expect: (s) => s === 200,
      },
    ];
    const cases: Record<string, Attempt[]> = {
      'GET /': noAccountData,
      'GET /favicon.ico': [
        {
          name: 'public: no icon, no account data',
          send: () => fetch(`${stack.url}/favicon.ico`),
          expect: (s) => s === 204,
        },
      ],
      'GET /healthz': [
        {
          name: 'public: aggregate health only, no account data',
          send: () => fetch(`${stack.url}/healthz`),
          expect: (s) => s === 200,
        },
      ],
      'GET /livez': [
        {
          name: 'public: the process is up, no account data',
          send: () => fetch(`${stack.url}/livez`),
          expect: (s) => s === 200,
        },
      ],
      'GET /readyz': [
        {
          name: 'public: readiness checks by name, no account data',
          send: () => fetch(`${stack.url}/readyz`),
          expect: (s) => s === 200,
        },
      ],
      'GET /metrics': [
        {
          name: "without the operator's token: no metrics (they name no account either)",
          send: () => fetch(`${stack.url}/metrics`),
          expect: refused,
        },
      ],
      'POST /webhooks/incident': [
        {
          name: "A's subscription address, signed with B's secret",
          send: () =>
            post(
              `/webhooks/incident?subscription=${subA}`,
              incidentBody,
              signWebhook({ secret: b.incidentSecrets.get(subB!)!, body: incidentBody }),
            ),
          expect: refused,
        },
        {
          name: "B's subscription address, signed with A's secret",
          send: () =>
            post(
              `/webhooks/incident?subscription=${subB}`,
              incidentBody,
              signWebhook({ secret: a.incidentSecrets.get(subA!)!, body: incidentBody }),
            ),
          expect: refused,
        },
      ],
      'POST /ticketing/webhook': [
        {
          name: "A's account address, signed with B's secret",
          send: () =>
            post(
              `/ticketing/webhook?account=${a.accountId}`,
              ticketBody,
              signZendeskWebhook({ secret: b.zendeskWebhookSecret, rawBody: ticketBody })
                .headers as Record<string, string>,
            ),
          expect: refused,
        },
        {
          name: "B's account address, signed with A's secret",
          send: () =>
            post(
              `/ticketing/webhook?account=${b.accountId}`,
              ticketBody,
              signZendeskWebhook({ secret: a.zendeskWebhookSecret, rawBody: ticketBody })
                .headers as Record<string, string>,
            ),
          expect: refused,
        },
      ],
      'GET /install': [
        {
          name: 'public: only starts an install for the subdomain named, reads no account',
          send: () =>
            fetch(`${stack.url}/install?subdomain=${b.subdomain}`, { redirect: 'manual' }),
          expect: (s) => s === 302,
        },
      ],
      'GET /oauth/callback': [
        {
          name: "a made-up state naming A's account, with a stolen code",
          send: () =>
            fetch(
              `${stack.url}/oauth/callback?state=${encodeURIComponent(a.accountId)}&code=stolen`,
            ),
          expect: refused,
        },
      ],
    };
    for (const [key, [method, route, body]] of Object.entries(sidebarRoutes))
      cases[key] = sidebarAttempts(method, route, body);
    const pageNow = Date.now();
    cases['POST /sidebar/app/assets/iframe.html'] = sidebarAttempts('GET', '').slice(0, 3);
    cases['GET /sidebar/app/assets/iframe.html'] = [
      {
        name: 'the page without Zendesk’s signed POST opens no session',
        send: () => fetch(`${stack.url}/sidebar/app/assets/iframe.html`),
        expect: refused,
      },
    ];
    const renew = (token: string) =>
      fetch(`${stack.url}/sidebar/session/renew`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
    cases['POST /sidebar/session/renew'] = [
      {
        name: 'a valid ZAF JWT of A instead of a session',
        send: () => renew(forgeToken('valid', tokenTarget(a, b), pageNow, 0, null)),
        expect: refused,
      },
      {
        name: 'a token that is no session',
        send: () => renew('A'.repeat(43)),
        expect: refused,
      },
    ];
    const adminCases = await adminCrossAccountCases(stack);
    Object.assign(cases, adminCases);

    const routes = routesOf(stack.connector.app).map((r) => `${r.method} ${r.path}`);
    const uncovered = routes.filter((r) => !(r in cases));
    const table: string[] = [];
    const problems: string[] = [];
    const writesBefore = await accountFingerprint(stack, a);
    for (const route of routes.filter((r) => r in cases)) {
      for (const attempt of cases[route]!) {
        const response = await attempt.send();
        const body = await response.text();
        const ok = attempt.expect(response.status);
        const leaks =
          aMarkers.filter((m) => body.includes(m)).length +
          aSecrets.filter((s) => body.includes(s)).length;
        const shape = refused(response.status)
          ? answerProblems(
              {
                status: response.status,
                contentType: response.headers.get('content-type') ?? '',
                body,
              },
              aSecrets,
              'refused',
            )
          : [];
        table.push(
          `${route} × ${attempt.name}: ${response.status}${ok && leaks === 0 && shape.length === 0 ? '' : ' FAIL'}`,
        );
        if (!ok || leaks > 0 || shape.length > 0) {
          problems.push(
            `${route} × ${attempt.name}: ${response.status} ${body.slice(0, 160)} ${shape.join('; ')}${leaks ? ' (leaks A)' : ''}`,
          );
        }
      }
    }
    const writesAfter = await accountFingerprint(stack, a);
    writeReportPart(`scoping-${backend}`, { routes, attempts: table, uncovered, problems });
    record(
      'Every route scoped to one account',
      'scopes every route to one account',
      uncovered.length === 0 && problems.length === 0 && writesAfter === writesBefore,
      `${routes.length} routes from the router stack, ${table.length} cross-account attempts, ${problems.length} not refused, uncovered: ${uncovered.join(', ') || 'none'}`,
    );
    expect(uncovered, 'routes without a cross-account case').toEqual([]);
    expect(problems).toEqual([]);
    expect(writesAfter, "account A's rows changed by B's attempts").toBe(writesBefore);
  });

  const LIVE = [
    /\b(?:https?|ftp):\/\//i,
    /\bwww\.[a-z0-9-]+\.[a-z]{2,}/i,
    /[a-z0-9-]+\.example\b/i,
    /[a-z0-9._%+-]+@[a-z0-9-]+\.[a-z]{2,}/i,
    /<b>/,
  ];
  /** Each live link, address or markup found, with a little of its line. */
  const liveIn = (texts: string[]) =>
    texts.flatMap((text) =>
      LIVE.flatMap((pattern) => {
        const match = pattern.exec(text);
        if (!match) return [];
        const line =
          text
            .slice(0, match.index + match[0].length)
            .split('\n')
            .at(-1) ?? '';
        return [`"${match[0]}" in "${line.slice(-80)}"`];
      }),
    );

  /** A detected incident for account A: the ticket the connector opens for it, once it exists. */
  async function detectedTicket(input: Record<string, unknown>) {
    const incident = await seedIncident(stack, { clientId: 'cl_demo_parent', ...input });
    const link = await eventually(
      'a detected-incident ticket',
      async () =>
        (await stack.connector.db.prisma.incidentLink.findFirst({
          where: {
            accountId: stack.a.accountId,
            ticketId: { gt: 0 },
            OR: [{ incidentId: incident.id }, { incidentId: incident.ref }],
          },
        })) ?? undefined,
      60_000,
    );
    return { incident, ticketId: link.ticketId };
  }

  it("defangs the threat URL, its domain and the analysts' messages in the subjects and notes it writes to Zendesk", async () => {
    const evil = 'login-secure-evil-bank.example';
    const { incident, ticketId } = await detectedTicket({
      url: `https://${evil}/verify?acct=1&next=http://second.evil.example/<b>`,
      reportedBy: 'phisher@evil-mail.example',
    });
    await advanceIncident(stack, incident.id, {
      status: 'case_building',
      message: `Contacted abuse@${evil} about https://${evil}/login and ftp://files.evil.example; see www.evil-forum.example`,
    });
    const ticket = await eventually(
      'the history note',
      async () => {
        const current = await sandboxTicket(stack, 'demo', ticketId);
        return current.comments.some((c) => c.body.includes('Contacted')) ? current : undefined;
      },
      60_000,
    );
    const written = [ticket.ticket.subject, ...ticket.comments.map((c) => c.body)];
    const found = liveIn(written);
    record(
      'Defanging of attacker-controlled values in notes and ticket subjects (threat, domain, analyst messages)',
      "defangs the threat URL, its domain and the analysts' messages in the subjects and notes it writes to Zendesk",
      found.length === 0,
      `detected-incident ticket: subject and ${ticket.comments.length} notes from a hostile URL (nested URL, markup) and a history message with a URL, an ftp URL, a www host and an email: ${found.length === 0 ? 'nothing live' : found.join('; ')}`,
    );
    // The threat and the message are there, defanged: the check read the right ticket.
    expect(written.join('\n')).toContain('evil-bank[.]example');
    expect(written.join('\n')).toContain('Contacted');
    expect(found).toEqual([]);
  }, 120_000);

  // Found by this run and fixed in 9f2ac8d: the note once showed these values undefanged.
  it('defangs the registrar, hosting provider and taxonomy in the detected-incident note', async () => {
    const { ticketId } = await detectedTicket({
      url: 'https://quiet-threat.example/a',
      hostingProvider: 'Bulletproof hosting http://bp-host.example',
      registrar: {
        name: 'evil-registrar.example',
        description: 'see https://whois.evil.example',
      },
      threatTaxonomy: {
        name: 'Phishing www.phish-taxonomy.example',
        description: 'mail ceo@evil-mail.example',
      },
    });
    const ticket = await eventually(
      'the detected-incident note',
      async () => {
        const current = await sandboxTicket(stack, 'demo', ticketId);
        return current.comments.some((c) => c.body.includes('Hosting provider'))
          ? current
          : undefined;
      },
      60_000,
    );
    const found = liveIn(ticket.comments.map((c) => c.body));
    record(
      'Defanging of incident details in the detected-incident note (registrar, hosting provider, taxonomy)',
      'defangs the registrar, hosting provider and taxonomy in the detected-incident note',
      found.length === 0,
      found.length === 0 ? 'nothing live' : found.join('; '),
    );
    expect(found).toEqual([]);
  }, 120_000);

  // The review's 120,000-character page title stalled every endpoint 25 s.
  it('answers GET /healthz throughout while it processes a hostile detected incident', async () => {
    const CHARS = 120_000; // the size of the review's page title
    const huge = (unit: string) => unit.repeat(Math.ceil(CHARS / unit.length));
    const incident = await seedIncident(stack, {
      clientId: 'cl_demo_parent',
      url: 'https://hostile-text.example/login',
      emitEvents: false,
      registrar: { name: huge('a.'), description: huge('a-') },
      hostingProvider: huge('a+'),
      threatTaxonomy: { name: huge('ab.') + '!', description: huge('a.') },
    });
    const incidentPath = `${stack.incidentUrl}/_sandbox/incidents/${encodeURIComponent(incident.id)}`;
    await controlCall(`${incidentPath}/blocklists`, 'POST', {
      authority: huge('a.'),
      type: 'blocklist',
      status: 'listed',
      link: `https://${huge('a.')}example/${huge('a-')}`,
    });
    await controlCall(`${incidentPath}/snapshots`, 'POST', {
      insights: {
        page: { title: huge('a.') },
        whois: { registrar: huge('a-') },
        certificate: { issuer: `${huge('ab.')}!`, isValid: true },
        indicators: { finalUrl: `https://${huge('a.')}example` },
      },
    });
    // the message and the reason must reach the connector: no optional field left out this time
    const settings = `${stack.incidentUrl}/_sandbox/settings`;
    await controlCall(settings, 'PATCH', { omitOptionalPayloadFields: 'never' });
    const probe = healthProbe(stack.url);
    try {
      await advanceIncident(stack, incident.id, {
        status: 'action_required',
        force: true,
        message: huge('a.'),
        waitForClient: huge('a-'),
      });
    } finally {
      await controlCall(settings, 'PATCH', { omitOptionalPayloadFields: 'sometimes' });
    }
    const link = await eventually(
      'the detected-incident ticket',
      async () =>
        (await stack.connector.db.prisma.incidentLink.findFirst({
          where: {
            accountId: stack.a.accountId,
            ticketId: { gt: 0 },
            OR: [{ incidentId: incident.id }, { incidentId: incident.ref }],
          },
        })) ?? undefined,
      90_000,
    );
    await eventually(
      'the detected-incident note',
      async () => {
        const current = await sandboxTicket(stack, 'demo', link.ticketId);
        return current.comments.some((c) => c.body.includes('Hosting provider:'))
          ? current
          : undefined;
      },
      90_000,
    );
    // every event of the advance (status, history message, waitForClient) applied too; the
    // ticket writer holds a change a moment for its companions, so wait for its note as well
    await waitForQuiet(stack, 60_000);
    const ticket = await eventually(
      'the note with the hostile message and reason',
      async () => {
        const current = await sandboxTicket(stack, 'demo', link.ticketId);
        const text = current.comments.map((c) => c.body).join('\n');
        return /Analyst: a\.a\.a.*…/.test(text) && /Request: a-a-.*…/.test(text)
          ? current
          : undefined;
      },
      60_000,
    );
    const health = await probe.stop();
    const longest = Math.max(...ticket.comments.map((c) => c.body.length));
    record(
      'Hostile text never stalls the connector',
      'answers GET /healthz throughout while it processes a hostile detected incident',
      health.failures === 0,
      `a detected incident with ${CHARS.toLocaleString('en')}-character registrar, hosting provider, taxonomy, blocklist link, page title, WHOIS registrar, certificate issuer, final URL, history message and waitForClient: ${health.answers} /healthz answers, slowest ${health.slowestMs.toFixed(0)} ms, ${health.failures} not 200; longest note ${longest} characters`,
    );
    expect(health.answers).toBeGreaterThan(10);
    expect(health.failures).toBe(0);
    expect(longest).toBeLessThan(25_000); // the note caps held
    // the hostile message and reason were shown, cut
    const bodies = ticket.comments.map((c) => c.body).join('\n');
    expect(bodies).toMatch(/Analyst: a\.a\.a.*…/); // `a.a` is no host: no TLD
    expect(bodies).toMatch(/Request: a-a-.*…/);
  }, 240_000);

  it('never writes a secret to the logs, even on the error paths', async () => {
    // Error paths that log: the incident service failing under the worker, and the error handler's
    // unhandled errors (a NUL byte in a looked-up value, see nul-bytes.test.ts, logs the database
    // error). Known secrets are in the stack; none may appear in what it logged.
    const faults = `${stack.incidentUrl}/_sandbox/faults`;
    const fault = (await (
      await fetch(faults, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ path: '/v1/*', kind: 'status', status: 500, times: 20 }),
      })
    ).json()) as { id: string };
    const incident = await seedIncident(stack, {
      clientId: 'cl_demo_parent',
      url: 'https://faulty-secret-probe.example/x',
    });
    await advanceIncident(stack, incident.id, { status: 'case_building', message: 'probe' });
    await eventually('the worker meeting the failing service', async () => {
      const { data } = (await (await fetch(faults)).json()) as {
        data: { id: string; hits: number }[];
      };
      const rule = data.find((f) => f.id === fault.id);
      return rule === undefined || rule.hits > 0 ? true : undefined;
    });
    await fetch(faults, { method: 'DELETE' });
    const [subscription] = stack.a.subscriptionIds;
    await fetch(`${stack.url}/oauth/callback?state=ab%00cd&code=x`);
    await fetch(`${stack.url}/webhooks/incident?subscription=${subscription}%00`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const lines = stack.logs.lines();
    const errorLines = lines.filter((line) => /error/i.test(line)).length;
    const leaked = (await stack.secrets()).filter((s) => lines.some((line) => line.includes(s)));
    record(
      'No secret in logs',
      'never writes a secret to the logs, even on the error paths',
      leaked.length === 0,
      `${lines.length} log lines (${errorLines} about errors) captured from the console, the output streams and the connector's log across setup of two accounts, an OAuth install, cross-account attempts, incident-service faults and unhandled request errors; ${leaked.length} secrets found`,
    );
    expect(lines.length).toBeGreaterThan(0);
    expect(leaked).toEqual([]);
  }, 60_000);
});

/** A's configuration, subscriptions and credentials as stored: B's attempts must not change them. */
async function accountFingerprint(stack: ChaosStack, account: InstalledAccount): Promise<string> {
  const where = { accountId: account.accountId };
  const rows = [
    await stack.connector.db.prisma.accountConfiguration.findMany({ where }),
    await stack.connector.db.prisma.incidentSubscription.findMany({ where }),
    await stack.connector.db.prisma.zendeskCredential.findMany({ where }),
    await stack.connector.db.prisma.incidentLink.findMany({ where }),
  ];
  return createHash('sha256')
    .update(JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)))
    .digest('hex');
}

interface AdminSessionsModule {
  createAdminSession(
    db: ChaosStack['connector']['db'],
    input: { accountId: string; zendeskUserId: number; userName: string },
    now: Date,
  ): Promise<string>;
  csrfTokenOf(token: string): string;
}

/**
 * The admin page's routes, when the app has them: B's administrator, signed in, sends every admin
 * route A's identifiers. Loaded at run time so this file does not depend on the admin page existing.
 */
async function adminCrossAccountCases(
  stack: ChaosStack,
): Promise<
  Record<
    string,
    { name: string; send: () => Promise<Response>; expect: (status: number) => boolean }[]
  >
> {
  const routes = routesOf(stack.connector.app).filter((r) => r.path.startsWith('/admin'));
  if (routes.length === 0) return {};
  const modulePath = '@incident-desk/connector/src/admin/admin-sessions';
  const sessions = (await import(/* @vite-ignore */ modulePath)) as AdminSessionsModule;
  const { a, b } = stack;
  const token = await sessions.createAdminSession(
    stack.connector.db,
    { accountId: b.accountId, zendeskUserId: b.seed.adminId, userName: 'Admin of B' },
    new Date(),
  );
  const headers = {
    cookie: `incident-desk-admin=${token}`,
    'x-csrf-token': sessions.csrfTokenOf(token),
    origin: stack.url,
    'content-type': 'application/json',
  };
  const failure = await stack.connector.db.prisma.syncFailure.findFirst({
    where: { accountId: a.accountId },
  });
  const ids: Record<string, string> = {
    id: failure?.id ?? '00000000-0000-4000-8000-000000000000',
    queue: 'incident-event',
    ticketId: String(a.seed.ticketIds[0]),
  };
  const cases: Record<
    string,
    { name: string; send: () => Promise<Response>; expect: (status: number) => boolean }[]
  > = {};
  // Routes whose scope is a query parameter: B's administrator names A's incident client.
  const queries: Record<string, string[]> = {
    '/admin/api/analytics': ['', '?client=cl_demo_parent', '?client=cl_demo_bank'],
    '/admin/api/analytics.csv': [
      '?chart=waiting-on-customer',
      '?chart=reports-per-week&client=cl_demo_parent',
      '?chart=credits&client=cl_demo_retail',
    ],
  };
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, (_m, name: string) => ids[name] ?? 'x');
    const body =
      route.method === 'PUT' || route.method === 'POST'
        ? JSON.stringify({ incidentId: 'inc_of_a', accountId: a.accountId })
        : undefined;
    cases[`${route.method} ${route.path}`] = (queries[route.path] ?? ['']).map((query) => ({
      name: `B's administrator, with A's identifiers${query ? ` (${query})` : ''}`,
      send: () =>
        fetch(`${stack.url}${path}${query}`, {
          method: route.method,
          headers,
          ...(body ? { body } : {}),
          redirect: 'manual',
        }),
      // Scoped by the session: B's own data or a refusal; never A's (checked by the caller).
      expect: (status: number) => status < 500 && (!query.includes('client=') || status === 404),
    }));
  }
  return cases;
}

/**
 * Asks GET /healthz every 50 ms until stopped. Each answer's time counts from when the request was
 * due, so a stall of the whole process (everything here shares one event loop) is measured also
 * when it falls between two requests.
 */
function healthProbe(baseUrl: string) {
  let stopped = false;
  let answers = 0;
  let failures = 0;
  let slowestMs = 0;
  const running = (async () => {
    let due = performance.now();
    while (!stopped) {
      const response = await fetch(`${baseUrl}/healthz`).catch(() => null);
      await response?.text();
      const now = performance.now();
      slowestMs = Math.max(slowestMs, now - due);
      answers += 1;
      if (response?.status !== 200) failures += 1;
      await new Promise((resolve) => setTimeout(resolve, 50));
      due = now + 50;
    }
  })();
  return {
    async stop() {
      stopped = true;
      await running;
      return { answers, failures, slowestMs };
    },
  };
}
