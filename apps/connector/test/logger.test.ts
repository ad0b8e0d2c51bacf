// No log line carries a payload, a query's parameters, a token, a key or an
// email, and every refused webhook request logs one line with its reason. The lines are
// JSON objects (pino) with a level and the request's id. The database errors
// below are shaped as the drivers make them: PGlite attaches the query and its parameters, pg a
// detail quoting values, and Prisma prints the call's arguments in its message.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signWebhook } from '@incident-desk/incident-api';
import { createErrorHandler, sendError } from '../src/http/app-error';
import { incidentWebhookRouter } from '../src/http/incident-webhook';
import { ticketingWebhookRouter } from '../src/http/ticketing-webhook';
import { requestLogging } from '../src/http/request-logging';
import { withLogContext } from '../src/log/log-context';
import { createLogger, describeError, redact } from '../src/log/logger';

const ACCOUNT = '00000000-0000-4000-8000-000000000001';
const SECRET = 'whsec_current';
const MARKER = 'payload-marker-7d1e';
const EMAIL = 'victim@customer.example';
// A made-up key of the shape real API keys have (long and opaque), so the redaction is exercised.
const API_KEY = 'test_only_key_0000111122223333444455556666';

function pgliteError(): Error {
  return Object.assign(new Error('unsupported Unicode escape sequence'), {
    name: 'error',
    code: '22P05',
    query: 'INSERT INTO webhook_receipt (id, payload) SELECT …',
    params: [[ACCOUNT], [`{"message":"${MARKER} ${EMAIL}","key":"${API_KEY}"}`]],
    detail: `\\u0000 cannot be converted to text: ${MARKER}`,
  });
}

function prismaError(): Error {
  return Object.assign(
    new Error(
      `\nInvalid \`prisma.syncFailure.create()\` invocation:\n\n{\n  data: {\n    reason: "${MARKER}",\n    email: "${EMAIL}"\n  }\n}\n\nUnique constraint failed`,
    ),
    { name: 'PrismaClientKnownRequestError', code: 'P2002' },
  );
}

describe('the connector logger', () => {
  it('reduces an error to its name, code and first line: never its parameters, detail or arguments', () => {
    for (const error of [pgliteError(), prismaError(), new Error('x', { cause: pgliteError() })]) {
      const line = describeError(error);
      expect(line).not.toContain(MARKER);
      expect(line).not.toContain(EMAIL);
      expect(line).not.toContain(API_KEY);
    }
    expect(describeError(pgliteError())).toBe('error [22P05] unsupported Unicode escape sequence');
    expect(describeError(prismaError())).toBe(
      'PrismaClientKnownRequestError [P2002] Invalid `prisma.syncFailure.create()` invocation:',
    );
  });

  it('redacts emails, tokens, keys and secrets in messages, and keeps ids readable', () => {
    const text = redact(
      `user ${EMAIL} key=${API_KEY} Authorization: Bearer abc.def.ghi-jkl token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln secret deadbeef0a1b2c3ddeadbeef0a1b2c3d account ${ACCOUNT}\ninjected`,
    );
    expect(text).not.toMatch(/victim|test_only_key|abc\.def|eyJ|deadbeef|\n/);
    expect(text).toContain(ACCOUNT);
    expect(text).toContain('[email]');
  });

  it('cuts a message and every field at a bounded length', () => {
    const lines: string[] = [];
    createLogger((line) => lines.push(line)).info('x'.repeat(100_000), {
      field: 'y'.repeat(5_000),
    });
    const entry = JSON.parse(lines[0]!) as { msg: string; field: string };
    expect(entry.msg.length).toBeLessThanOrEqual(601);
    expect(entry.field.length).toBeLessThanOrEqual(601);
  });

  it('writes one JSON object per line with its level, time, and the ids of its context', () => {
    const lines: { line: string; level: string }[] = [];
    const logger = createLogger((line, level) => lines.push({ line, level }), {
      level: 'info',
      format: 'json',
    });
    logger.debug('below the level');
    withLogContext({ reqId: 'req-1', jobId: 'job-1', accountId: ACCOUNT }, () =>
      logger.warn(`delivery from ${EMAIL}`, { key: API_KEY, attempt: 2, error: pgliteError() }),
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]!.level).toBe('warn');
    expect(lines[0]!.line).not.toContain('\n');
    expect(JSON.parse(lines[0]!.line)).toMatchObject({
      level: 'warn',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as string,
      msg: 'delivery from [email]',
      reqId: 'req-1',
      jobId: 'job-1',
      accountId: ACCOUNT,
      key: '[redacted]',
      attempt: 2,
      error: 'error [22P05] unsupported Unicode escape sequence',
    });
    for (const value of [EMAIL, API_KEY, MARKER]) expect(lines[0]!.line).not.toContain(value);
  });

  it('writes `message key=value` lines when LOG_FORMAT=text asks', () => {
    const lines: string[] = [];
    const logger = createLogger((line) => lines.push(line), { level: 'debug', format: 'text' });
    withLogContext({ reqId: 'req-2' }, () => logger.debug('details', { status: 401 }));
    expect(lines).toEqual(['details reqId=req-2 status=401']);
  });
});

describe('receiver logs', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  async function serve(accept: () => Promise<never>) {
    const lines: { line: string; level: string }[] = [];
    const logger = createLogger((line, level) => lines.push({ line, level }));
    const app = express();
    app.use(requestLogging(logger));
    const inbox = { accept };
    const secrets = { accountId: ACCOUNT, secrets: [SECRET] };
    app.use(incidentWebhookRouter({ inbox, subscriptions: { find: async () => secrets }, logger }));
    app.use(ticketingWebhookRouter({ inbox, accounts: { find: async () => secrets }, logger }));
    app.use(createErrorHandler(logger));
    const server = app.listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    close = () => new Promise((resolve) => server.close(() => resolve()));
    return { lines, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  }

  it('logs a failed durable write without the payload or the query parameters the error carries', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const { lines, base } = await serve(() => Promise.reject(pgliteError()));
      const body = JSON.stringify({
        id: 'evt_1',
        event: 'incident.history_entry',
        data: { incidentId: 'inc_1', message: `${MARKER} ${EMAIL}` },
      });
      const response = await fetch(`${base}/webhooks/incident?subscription=sub-1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...signWebhook({ secret: SECRET, body }) },
        body,
      });
      expect(response.status).toBe(503);
      const text = [
        ...lines.map((l) => l.line),
        ...consoleError.mock.calls.map((call) => call.map(String).join(' ')),
      ].join('\n');
      expect(text).toContain('durable write failed');
      expect(text).toContain('22P05');
      expect(text).not.toContain(MARKER);
      expect(text).not.toContain(EMAIL);
      expect(text).not.toContain(API_KEY);
    } finally {
      consoleError.mockRestore();
    }
  });

  it('logs one line with the reason for every refused webhook request, without its body', async () => {
    const { lines, base } = await serve(() => Promise.reject(new Error('unused')));
    const marked = JSON.stringify({ kind: 'report', note: `${MARKER} ${EMAIL}` });
    const refused: [string, RequestInit][] = [
      [
        '/webhooks/incident?subscription=sub-1',
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: marked },
      ],
      [
        '/ticketing/webhook?account=x',
        { method: 'POST', headers: { 'content-type': 'text/plain' }, body: marked },
      ],
      [
        '/ticketing/webhook?account=x',
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-zendesk-webhook-signature': 'bad',
            'x-zendesk-webhook-signature-timestamp': new Date().toISOString(),
          },
          body: marked,
        },
      ],
    ];
    for (const [path, init] of refused) {
      expect((await fetch(`${base}${path}`, init)).status).toBeGreaterThanOrEqual(400);
    }
    const warnings = lines
      .filter((l) => l.level === 'warn')
      .map((l) => JSON.parse(l.line) as Record<string, unknown>)
      .map(({ msg, status, reason, accountId }) => ({ msg, status, reason, accountId }));
    expect(warnings).toEqual([
      {
        msg: 'incident webhook refused',
        status: 401,
        reason: 'missing_headers',
        accountId: ACCOUNT,
      },
      {
        msg: 'ticketing webhook refused',
        status: 415,
        reason: 'unsupported_media_type',
        accountId: undefined,
      },
      {
        msg: 'ticketing webhook refused',
        status: 401,
        reason: 'signature_mismatch',
        accountId: ACCOUNT,
      },
    ]);
    expect(lines.map((l) => l.line).join('\n')).not.toContain(MARKER);
  });

  it('logs an admin page asking whether it is signed in at info, and other refusals at warn', async () => {
    const lines: { line: string; level: string }[] = [];
    const logger = createLogger((line, level) => lines.push({ line, level }));
    const app = express();
    app.use(requestLogging(logger));
    app.get('/admin/api/session', (_req, res) => sendError(res, 'not_signed_in', 'sign in'));
    app.get('/admin/api/settings', (_req, res) => sendError(res, 'not_admin', 'not an admin'));
    const server = app.listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    close = () => new Promise((resolve) => server.close(() => resolve()));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect((await fetch(`${base}/admin/api/session`)).status).toBe(401);
    expect((await fetch(`${base}/admin/api/settings`)).status).toBe(401);
    const levels = lines.map((l) => {
      const { msg, reason } = JSON.parse(l.line) as { msg: string; reason: string };
      return { level: l.level, msg, reason };
    });
    expect(levels).toEqual([
      { level: 'info', msg: 'request refused', reason: 'not_signed_in' },
      { level: 'warn', msg: 'request refused', reason: 'not_admin' },
    ]);
  });
});
