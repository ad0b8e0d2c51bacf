// Hostile requests for every public entry point, as fast-check arbitraries. A generated plan is
// turned into a request at send time (signatures and token expiry depend on the clock). Every plan
// is built to be refused: signed bodies are never valid events, valid tokens never carry a valid
// action body. Only the replay plans send an accepted delivery again, which must stay a duplicate.
import fc from 'fast-check';
import { signWebhook } from '@incident-desk/incident-api';
import { signZendeskWebhook } from '@incident-desk/zendesk-api';
import { ZTicketingWebhookBody } from '@incident-desk/connector/src/jobs/ticket-event-job';
import { forgeToken, type TokenForgery, type TokenTarget } from './forge-token';

export interface FuzzTargets {
  incident: { subscriptionId: string; secret: string; foreignSecret: string };
  /** The installation's account, its Zendesk account id (which Zendesk names on every delivery), its secrets. */
  ticketing: { accountId: string; zendeskAccountId: number; secret: string; foreignSecret: string };
  sidebar: TokenTarget & {
    /** A live session of A's agent, as the signed page hands it out. */
    session: string;
    ticketId: number;
  };
  /** Deliveries accepted before the run, with the headers they were accepted with. */
  replay: {
    incident: { body: string; headers: Record<string, string> };
    ticketing: { body: string; headers: Record<string, string> };
  };
  /** Routes under /admin/api found on the app (empty while the admin page does not exist). */
  adminPaths: string[];
}

export interface FuzzRequest {
  /** "<target>/<attack>", the unit the report counts. */
  kind: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** `refused`: any 4xx; `duplicate`: 200 {"status":"duplicate"} (or 400 stale for a verbatim replay). */
  expect: 'refused' | 'duplicate';
}

export type FuzzPlan = (targets: FuzzTargets, nowMs: number) => FuzzRequest;

/** Values that must come back escaped if they are echoed at all. */
export const HOSTILE_MARKUP = '<img src=x onerror=alert(1)>';
/** In every kind of hostile body: what a log line must never carry. */
export const PAYLOAD_MARKER = 'chaos-payload-marker-5c1d';
/** Hostile texts the fuzz writes into bodies, headers and paths. */
export const HOSTILE_TEXTS = [
  HOSTILE_MARKUP,
  '<script>alert(1)</script>',
  '"><svg onload=alert(1)>',
  '{{ticket.requester.email}}',
  '../../etc/passwd',
  '\u0000\uffff\ud800',
  "' OR 1=1 --",
  'https://evil.example/login?next=//evil.example',
  `${PAYLOAD_MARKER} victim@example.com`,
] as const;
const hostileText = fc.constantFrom(...HOSTILE_TEXTS);
const text = fc.oneof(fc.string({ maxLength: 40 }), hostileText);
const nonJsonTypes = fc.constantFrom(
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'text/json',
  'application/jsonp',
  'application/vnd.api+json',
  'application/octet-stream',
  '',
);
const JSON_TYPE = { 'content-type': 'application/json' };
/** encodeURIComponent throws on lone surrogates, which the generators do produce. */
const enc = (value: string) => encodeURIComponent(value.replace(/[\ud800-\udfff]/g, '\ufffd'));

/** A plausible incident event (only ever sent unsigned, mis-signed, stale or truncated). */
const incidentEvent = fc
  .record({
    id: fc.string({ minLength: 1, maxLength: 30 }),
    event: fc.constantFrom(
      'incident.status_changed',
      'incident.history_created',
      'incident.created',
      'incident.takedown_updated',
    ),
    incidentId: fc.string({ maxLength: 24 }),
    note: text,
  })
  .map(({ id, event, incidentId, note }) =>
    JSON.stringify({
      id: `evt_fuzz_${id}`,
      event,
      timestamp: new Date(0).toISOString(),
      clientId: 'cl_demo_parent',
      data: { incidentId, status: 'closed', historyEntry: { message: note } },
    }),
  );

/** A JSON text that is not an object, or an object whose `event` is not a string. */
const wrongTypeIncidentBody = fc.oneof(
  fc
    .jsonValue()
    .filter((v) => typeof v !== 'object' || v === null || Array.isArray(v))
    .map((v) => JSON.stringify(v)),
  fc
    .record({
      id: fc.jsonValue(),
      event: fc.jsonValue().filter((v) => typeof v !== 'string'),
      data: fc.jsonValue(),
    })
    .map((v) => JSON.stringify(v)),
);

const malformedJson = fc.oneof(
  fc.string({ maxLength: 200 }).filter((s) => !isJson(s)),
  incidentEvent.chain((body) =>
    fc.integer({ min: 0, max: body.length - 1 }).map((cut) => body.slice(0, cut)),
  ),
  fc.constantFrom(
    '{',
    '{"event":',
    '{"event":"incident.created",}',
    '\u0000',
    '[1,2',
    'NaN',
    "{'a':1}",
  ),
);

function isJson(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

const wrongTypeTicketingBody = fc
  .record({
    kind: fc.oneof(fc.constantFrom('report', 'comment', 'action'), fc.jsonValue()),
    ticketId: fc.oneof(
      fc.integer({ max: 0 }),
      fc.double({ noNaN: true }).filter((n) => !Number.isInteger(n)),
      fc.string({ maxLength: 25 }).filter((s) => !/^\d{1,19}$/.test(s)),
      fc.constant(null),
      fc.jsonValue(),
    ),
    mode: fc.oneof(fc.string({ maxLength: 12 }), fc.jsonValue()),
    action: fc.oneof(fc.string({ maxLength: 12 }), fc.jsonValue()),
    updatedAt: fc.oneof(fc.string({ minLength: 65, maxLength: 90 }), fc.integer()),
  })
  .filter((body) => !ZTicketingWebhookBody.safeParse(body).success)
  .map((body) => JSON.stringify(body));

const oversized = (limitBytes: number) =>
  fc
    .integer({ min: limitBytes + 1, max: limitBytes * 2 })
    .map((size) => JSON.stringify({ event: 'incident.created', pad: 'x'.repeat(size) }));

type Signer = 'none' | 'wrong_secret' | 'foreign_account' | 'stale' | 'future' | 'garbage';
const badSigner = fc.constantFrom<Signer>(
  'none',
  'wrong_secret',
  'foreign_account',
  'stale',
  'future',
  'garbage',
);
const skewSeconds = fc.integer({ min: 301, max: 10 * 365 * 86_400 });

function incidentHeaders(
  t: FuzzTargets,
  body: string,
  signer: Signer | 'valid',
  nowMs: number,
  skew: number,
): Record<string, string> {
  const now = Math.floor(nowMs / 1000);
  const secret = t.incident.secret;
  switch (signer) {
    case 'valid':
      return signWebhook({ secret, body, timestamp: now });
    case 'none':
      return {};
    case 'wrong_secret':
      return signWebhook({ secret: `${secret}x`, body, timestamp: now });
    case 'foreign_account':
      return signWebhook({ secret: t.incident.foreignSecret, body, timestamp: now });
    case 'stale':
      return signWebhook({ secret, body, timestamp: now - skew });
    case 'future':
      return signWebhook({ secret, body, timestamp: now + skew });
    case 'garbage': {
      const signed = signWebhook({ secret, body, timestamp: now });
      return Object.fromEntries(
        Object.entries(signed).map(([k, v]) => [
          k,
          k.toLowerCase().includes('signature') ? `${v.slice(0, -4)}zzzz` : v,
        ]),
      );
    }
  }
}

function zendeskHeaders(
  t: FuzzTargets,
  body: string,
  signer: Signer | 'valid',
  nowMs: number,
  skew: number,
): Record<string, string> {
  // Zendesk names its account on every delivery, signed or not
  const sign = (secret: string, at: number) => ({
    'x-zendesk-account-id': String(t.ticketing.zendeskAccountId),
    ...(signZendeskWebhook({ secret, rawBody: body, timestamp: new Date(at) }).headers as Record<
      string,
      string
    >),
  });
  const secret = t.ticketing.secret;
  switch (signer) {
    case 'valid':
      return sign(secret, nowMs);
    case 'none':
      return {};
    case 'wrong_secret':
      return sign(`${secret}x`, nowMs);
    case 'foreign_account':
      return sign(t.ticketing.foreignSecret, nowMs);
    case 'stale':
      return sign(secret, nowMs - skew * 1000);
    case 'future':
      return sign(secret, nowMs + skew * 1000);
    case 'garbage':
      return {
        'x-zendesk-webhook-signature': 'not-base64!!',
        'x-zendesk-webhook-signature-timestamp': 'yesterday',
      };
  }
}

const incidentPath = (t: FuzzTargets) =>
  `/webhooks/incident?subscription=${enc(t.incident.subscriptionId)}`;
const ticketingPath = (t: FuzzTargets) =>
  `/ticketing/webhook?account=${enc(t.ticketing.accountId)}`;

function incidentPlans(): fc.Arbitrary<FuzzPlan>[] {
  const post =
    (
      kind: string,
      body: string,
      signer: Signer | 'valid',
      skew = 3600,
      contentType?: string,
    ): FuzzPlan =>
    (t, now) => ({
      kind: `incident-webhook/${kind}`,
      method: 'POST',
      path: incidentPath(t),
      headers: {
        'content-type': contentType ?? 'application/json',
        ...incidentHeaders(t, body, signer, now, skew),
      },
      body,
      expect: 'refused',
    });
  return [
    malformedJson.map((body) => post('malformed_json', body, 'valid')),
    wrongTypeIncidentBody.map((body) => post('wrong_types', body, 'valid')),
    fc
      .tuple(incidentEvent, badSigner, skewSeconds)
      .map(([body, signer, skew]) => post(`signature_${signer}`, body, signer, skew)),
    fc
      .tuple(incidentEvent, nonJsonTypes)
      .map(([body, type]) => post('content_type', body, 'valid', 0, type)),
    oversized(256 * 1024).map((body) => post('oversized', body, 'valid')),
    fc
      .tuple(incidentEvent, fc.oneof(fc.string({ maxLength: 40 }), hostileText), fc.boolean())
      .map(([body, subscription, polluted]): FuzzPlan => (t, now) => ({
        kind: polluted
          ? 'incident-webhook/polluted_subscription'
          : 'incident-webhook/unknown_subscription',
        method: 'POST',
        // Polluted: the real id repeated after a fake one (Express then reads an array).
        path: `/webhooks/incident?subscription=${enc(`${subscription}-nope`)}${polluted ? `&subscription=${enc(t.incident.subscriptionId)}` : ''}`,
        headers: { ...JSON_TYPE, ...incidentHeaders(t, body, 'valid', now, 0) },
        body,
        expect: 'refused',
      })),
    fc.constantFrom('exact', 'resigned').map((how): FuzzPlan => (t, now) => ({
      kind: `incident-webhook/replay_${how}`,
      method: 'POST',
      path: incidentPath(t),
      headers: {
        ...JSON_TYPE,
        ...(how === 'exact'
          ? t.replay.incident.headers
          : incidentHeaders(t, t.replay.incident.body, 'valid', now, 0)),
      },
      body: t.replay.incident.body,
      expect: 'duplicate',
    })),
  ];
}

function ticketingPlans(): fc.Arbitrary<FuzzPlan>[] {
  const post =
    (
      kind: string,
      body: string,
      signer: Signer | 'valid',
      skew = 3600,
      contentType?: string,
    ): FuzzPlan =>
    (t, now) => ({
      kind: `ticketing-webhook/${kind}`,
      method: 'POST',
      path: ticketingPath(t),
      headers: {
        'content-type': contentType ?? 'application/json',
        ...zendeskHeaders(t, body, signer, now, skew),
      },
      body,
      expect: 'refused',
    });
  const validComment = fc
    .integer({ min: 1, max: 1_000_000 })
    .map((ticketId) =>
      JSON.stringify({ kind: 'comment', ticketId, updatedAt: `2026-01-01T00:00:${ticketId}Z` }),
    );
  return [
    malformedJson.map((body) => post('malformed_json', body, 'valid')),
    wrongTypeTicketingBody.map((body) => post('wrong_types', body, 'valid')),
    fc
      .integer({ min: 1, max: 1_000_000 })
      .map((ticketId) =>
        post('missing_occurrence', JSON.stringify({ kind: 'comment', ticketId }), 'valid'),
      ),
    fc
      .tuple(validComment, badSigner, skewSeconds)
      .map(([body, signer, skew]) => post(`signature_${signer}`, body, signer, skew)),
    fc
      .tuple(validComment, nonJsonTypes)
      .map(([body, type]) => post('content_type', body, 'valid', 0, type)),
    oversized(64 * 1024).map((body) => post('oversized', body, 'valid')),
    fc
      .tuple(validComment, fc.oneof(fc.uuid(), fc.string({ maxLength: 40 }), hostileText))
      .map(([body, account]): FuzzPlan => (t, now) => ({
        kind: 'ticketing-webhook/unknown_account',
        method: 'POST',
        path: `/ticketing/webhook?account=${enc(account)}`,
        headers: { ...JSON_TYPE, ...zendeskHeaders(t, body, 'valid', now, 0) },
        body,
        expect: 'refused',
      })),
    fc.constantFrom('exact', 'resigned').map((how): FuzzPlan => (t, now) => ({
      kind: `ticketing-webhook/replay_${how}`,
      method: 'POST',
      path: ticketingPath(t),
      headers: {
        ...JSON_TYPE,
        ...(how === 'exact'
          ? t.replay.ticketing.headers
          : zendeskHeaders(t, t.replay.ticketing.body, 'valid', now, 0)),
      },
      body: t.replay.ticketing.body,
      expect: 'duplicate',
    })),
  ];
}

const SIDEBAR_ROUTES = [
  ['GET', ''],
  ['POST', '/approve-takedown'],
  ['POST', '/actions/takedown'],
  ['POST', '/actions/monitor'],
  ['POST', '/actions/safe'],
  ['POST', '/report'],
  ['POST', '/retry-link'],
  ['POST', '/forwards/fwd_1/retry'],
] as const;

const forgery = fc.constantFrom<TokenForgery>(
  'bad_signature',
  'expired',
  'foreign_installation',
  'foreign_subdomain',
  'alg_none',
  'alg_hs256_public_key',
  'no_exp',
  'bad_claims',
  'foreign_audience',
  'foreign_agent',
);

function sidebarPlans(): fc.Arbitrary<FuzzPlan>[] {
  const forged = fc
    .tuple(
      fc.constantFrom(...SIDEBAR_ROUTES),
      forgery,
      fc.integer({ min: 6, max: 10 * 365 * 86_400 }),
      fc.jsonValue(),
    )
    .chain(([[method, route], how, age, junk]) =>
      fc.boolean().map(
        (toPage): FuzzPlan =>
          (t, now) =>
            toPage
              ? // the signed page: a forged ZAF JWT opens no session
                {
                  kind: `sidebar-page/zaf_${how}`,
                  method: 'POST',
                  path: '/sidebar/app/assets/iframe.html',
                  headers: { 'content-type': 'application/x-www-form-urlencoded' },
                  body: new URLSearchParams({
                    token: forgeToken(how, t.sidebar, now, age, junk),
                  }).toString(),
                  expect: 'refused',
                }
              : // the API takes sessions only: no JWT of any kind, not even a valid ZAF one
                {
                  kind: `sidebar-api/jwt_${how}`,
                  method,
                  path: `/sidebar/tickets/${t.sidebar.ticketId}${route}`,
                  headers: {
                    authorization: `Bearer ${forgeToken(how, t.sidebar, now, age, junk)}`,
                    ...(method === 'POST' ? JSON_TYPE : {}),
                  },
                  ...(method === 'POST' ? { body: '{}' } : {}),
                  expect: 'refused',
                },
      ),
    );
  const badHeader = fc
    .tuple(
      fc.constantFrom(...SIDEBAR_ROUTES),
      fc.oneof(
        fc.constant(null),
        fc.string({ maxLength: 60 }).map((s) => `Bearer ${s}`),
        fc.constantFrom(
          'Bearer',
          'Basic dXNlcjpwYXNz',
          'bearer a.b.c',
          'Bearer a.b.c.d',
          'Token x',
        ),
      ),
      fc.oneof(
        fc.constant(null),
        fc.string({ maxLength: 24 }).filter((s) => !/^\d+$/.test(s)),
      ),
    )
    .map(([[method, route], header, ticket]): FuzzPlan => (t) => ({
      kind: header === null ? 'sidebar-api/missing_token' : 'sidebar-api/malformed_token',
      method,
      path: `/sidebar/tickets/${ticket === null ? t.sidebar.ticketId : enc(ticket)}${route}`,
      headers:
        header === null
          ? ({} as Record<string, string>)
          : { authorization: sanitizeHeader(header) },
      expect: 'refused',
    }));
  // A valid session of A's agent: only bodies that must be refused.
  const validToken = (t: FuzzTargets, _now: number) => t.sidebar.session;
  const badBody = fc
    .oneof(
      malformedJson.map((body) => ({ attack: 'malformed_json', body, type: 'application/json' })),
      fc
        .jsonValue()
        .filter((v) => !isModeBody(v))
        .map((v) => ({ attack: 'wrong_types', body: JSON.stringify(v), type: 'application/json' })),
      fc.integer({ min: 8 * 1024 + 1, max: 64 * 1024 }).map((n) => ({
        attack: 'oversized',
        body: JSON.stringify({ mode: 'x'.repeat(n) }),
        type: 'application/json',
      })),
      nonJsonTypes.map((type) => ({
        attack: 'content_type',
        body: JSON.stringify({ mode: 'takedown' }),
        type,
      })),
    )
    .map(({ attack, body, type }): FuzzPlan => (t, now) => ({
      kind: `sidebar-api/${attack}`,
      method: 'POST',
      path: `/sidebar/tickets/${t.sidebar.ticketId}/report`,
      headers: {
        authorization: `Bearer ${validToken(t, now)}`,
        ...(type ? { 'content-type': type } : {}),
      },
      body,
      expect: 'refused',
    }));
  const unknownAction = fc
    .string({ minLength: 1, maxLength: 20 })
    .filter((s) => !['takedown', 'monitor', 'safe'].includes(s))
    .map((action): FuzzPlan => (t, now) => ({
      kind: 'sidebar-api/unknown_action',
      method: 'POST',
      path: `/sidebar/tickets/${t.sidebar.ticketId}/actions/${enc(action)}`,
      headers: { authorization: `Bearer ${validToken(t, now)}`, ...JSON_TYPE },
      body: '{}',
      expect: 'refused',
    }));
  return [forged, badHeader, badBody, unknownAction];
}

function isModeBody(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    ['takedown', 'monitor'].includes((value as { mode?: unknown }).mode as string)
  );
}

/** fetch refuses header values with control characters; keep the attack, drop what it cannot send. */
function sanitizeHeader(value: string): string {
  return value.replace(/[^\t\x20-\x7e]/g, '?');
}

function installPlans(): fc.Arbitrary<FuzzPlan>[] {
  const param = fc.option(fc.oneof(fc.string({ maxLength: 60 }), hostileText), { nil: undefined });
  const callback = fc
    .record({
      state: param,
      code: param,
      error: param,
      error_description: param,
      doubled: fc.boolean(),
    })
    .map(({ state, code, error, error_description, doubled }): FuzzPlan => () => {
      const query = new URLSearchParams();
      for (const [k, v] of Object.entries({ state, code, error, error_description })) {
        if (v !== undefined) query.append(k, v);
      }
      if (doubled) query.append('state', 'second');
      return {
        kind: 'oauth-callback/forged_query',
        method: 'GET',
        path: `/oauth/callback?${query}`,
        headers: {},
        expect: 'refused',
      };
    });
  const install = fc
    .tuple(
      fc.string({ maxLength: 30 }),
      fc.constantFrom('<', '>', '"', "'", 'a b', '/', '.', '%', '\\'),
    )
    .map(([prefix, bad]): FuzzPlan => () => ({
      kind: 'install/invalid_subdomain',
      method: 'GET',
      path: `/install?subdomain=${enc(`${prefix}${bad}`)}`,
      headers: {},
      expect: 'refused',
    }));
  return [callback, install];
}

function otherPlans(): fc.Arbitrary<FuzzPlan>[] {
  const unknownRoute = fc
    .tuple(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE' as const), fc.webPath())
    .filter(
      ([, p]) =>
        !/^\/(sidebar|webhooks|ticketing|oauth|install|healthz|admin)?($|\/)/.test(p) && p !== '',
    )
    .map(([method, p]): FuzzPlan => () => ({
      kind: 'unknown-route/any',
      method,
      path: p,
      headers: {},
      expect: 'refused',
    }));
  const admin = fc
    .tuple(fc.nat(), fc.constantFrom('GET', 'POST' as const), fc.jsonValue())
    .map(([i, method, junk]): FuzzPlan => (t) => ({
      kind: 'admin/unauthenticated',
      method,
      path: t.adminPaths.length > 0 ? t.adminPaths[i % t.adminPaths.length]! : '/admin',
      headers: { cookie: `session=${enc(JSON.stringify(junk))}`, ...JSON_TYPE },
      ...(method === 'POST' ? { body: JSON.stringify(junk) } : {}),
      expect: 'refused',
    }));
  return [unknownRoute, admin];
}

/** Every plan, weighted so each entry point gets a fair share of the run. */
export function fuzzPlan(): fc.Arbitrary<FuzzPlan> {
  const weighted = (arbs: fc.Arbitrary<FuzzPlan>[], weight: number) =>
    arbs.map((arbitrary) => ({ arbitrary, weight }));
  return fc.oneof(
    ...weighted(incidentPlans(), 4),
    ...weighted(ticketingPlans(), 4),
    ...weighted(sidebarPlans(), 8),
    ...weighted(installPlans(), 6),
    ...weighted(otherPlans(), 2),
  );
}
