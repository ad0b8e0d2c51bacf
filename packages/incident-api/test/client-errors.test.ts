import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  ConflictError,
  DuplicateIncidentError,
  InsufficientCreditsError,
  InternalServerError,
  InvalidParameterError,
  NotAwaitingApprovalError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResolutionsForbiddenError,
  ResponseValidationError,
  TemporarilyUnavailableError,
  UnauthorizedError,
  type IncidentClient,
} from '../src';
import { startStubServer, type StubServer } from './support/stub-server';

let stub: StubServer;
let client: IncidentClient;

beforeAll(async () => {
  stub = await startStubServer();
  client = stub.client();
});
afterAll(() => stub.close());
beforeEach(() => stub.reset());

type Call = (c: IncidentClient) => Promise<unknown>;

const calls = {
  resolutions: (c) => c.resolutions.listPage({ limit: 10 }),
  incidents: (c) => c.incidents.listPage({ limit: 10 }),
  users: (c) => c.users.listPage(),
  usage: (c) => c.usage.retrieve(),
  approve: (c) => c.incidents.approveTakedown('inc_1', { author: 'Ana' }),
  incident: (c) => c.incidents.retrieve('inc_1'),
  subject: (c) => c.incidents.retrieveBySubject('+14155550123'),
  snapshots: (c) => c.incidents.snapshots('inc_1'),
  reportTakedown: (c) => c.incidents.reportTakedown({ url: 'bad.example' }),
  reportMonitoring: (c) =>
    c.incidents.reportMonitoring({ incidentType: 'ipv4', subject: '192.0.2.1' }),
  webhooksList: (c) => c.webhooks.list(),
} satisfies Record<string, Call>;

// One row per row of the spec's Errors table (and the generic fallbacks).
const rows: Array<[keyof typeof calls, number, new (...args: never[]) => APIError, string]> = [
  ['resolutions', 400, InvalidParameterError, 'invalid_parameter'],
  ['incidents', 400, InvalidParameterError, 'invalid_parameter'],
  ['users', 400, InvalidParameterError, 'invalid_parameter'],
  ['approve', 400, InvalidParameterError, 'invalid_parameter'],
  ['reportTakedown', 422, InvalidParameterError, 'invalid_parameter'],
  ['usage', 401, UnauthorizedError, 'unauthorized'],
  ['resolutions', 401, UnauthorizedError, 'unauthorized'],
  ['users', 401, UnauthorizedError, 'unauthorized'],
  ['resolutions', 403, ResolutionsForbiddenError, 'resolutions_forbidden'],
  ['approve', 403, InsufficientCreditsError, 'insufficient_credits'],
  ['webhooksList', 403, PermissionDeniedError, 'permission_denied'],
  ['incident', 404, NotFoundError, 'not_found'],
  ['subject', 404, NotFoundError, 'not_found'],
  ['snapshots', 404, NotFoundError, 'not_found'],
  ['approve', 404, NotFoundError, 'not_found'],
  ['resolutions', 404, NotFoundError, 'not_found'],
  ['reportTakedown', 409, DuplicateIncidentError, 'duplicate_incident'],
  ['reportMonitoring', 409, DuplicateIncidentError, 'duplicate_incident'],
  ['approve', 409, NotAwaitingApprovalError, 'not_awaiting_approval'],
  ['incidents', 429, RateLimitError, 'rate_limited'],
  ['resolutions', 502, TemporarilyUnavailableError, 'temporarily_unavailable'],
  ['resolutions', 503, TemporarilyUnavailableError, 'temporarily_unavailable'],
  ['usage', 503, TemporarilyUnavailableError, 'temporarily_unavailable'],
  ['approve', 503, TemporarilyUnavailableError, 'temporarily_unavailable'],
  ['incident', 500, InternalServerError, 'server_error'],
  ['incident', 418, APIError, 'unexpected_status'],
];

describe('error mapping (spec: Errors)', () => {
  it.each(rows)('%s answered %i throws %o with code %s', async (call, status, errorClass, code) => {
    stub.enqueue({
      status,
      headers: { 'x-request-id': 'req_123' },
      json: { message: `service says ${status}`, detail: 'kept' },
    });
    const error = await calls[call](client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errorClass);
    expect((error as Error).name).toBe(errorClass.name);
    expect(error).toMatchObject({
      status,
      code,
      requestId: 'req_123',
      serviceMessage: `service says ${status}`,
      body: { message: `service says ${status}`, detail: 'kept' },
    });
    expect((error as Error).message).toContain(`service says ${status}`);
    expect(stub.requests).toHaveLength(1);
  });

  it('keeps each narrower kind an instance of the kind it narrows', () => {
    const init = {
      status: 403,
      body: {},
      headers: new Headers(),
      requestId: undefined,
      operation: 'x',
    };
    for (const narrower of [ResolutionsForbiddenError, InsufficientCreditsError]) {
      expect(new narrower(init)).toBeInstanceOf(PermissionDeniedError);
    }
    for (const narrower of [DuplicateIncidentError, NotAwaitingApprovalError]) {
      expect(new narrower(init)).toBeInstanceOf(ConflictError);
    }
    expect(new NotFoundError(init)).not.toBeInstanceOf(ConflictError);
  });

  it('treats a report answered 200 without id as a duplicate', async () => {
    stub.enqueue({ status: 200, json: { message: 'Incident already exists' } });
    const error = await calls.reportTakedown(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DuplicateIncidentError);
    expect(error).toMatchObject({ status: 200, code: 'duplicate_incident' });
  });

  it('treats a report answered 200 with an empty object as a duplicate too', async () => {
    stub.enqueue({ status: 200, json: {} });
    await expect(calls.reportMonitoring(client)).rejects.toBeInstanceOf(DuplicateIncidentError);
  });

  it('keeps a non-JSON error body as text', async () => {
    stub.enqueue({ status: 502, text: '<html>Bad gateway</html>' });
    const error = await calls.incident(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TemporarilyUnavailableError);
    expect((error as APIError).body).toBe('<html>Bad gateway</html>');
  });

  it('throws ResponseValidationError when a 2xx body is not the documented structure', async () => {
    stub.enqueue({ status: 200, json: { message: 'success', data: { id: 'inc_1' } } });
    const error = await calls.incident(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toContain('data.safeDomain');
  });

  it('throws APIConnectionError when nothing answers', async () => {
    stub.enqueue({ destroy: true });
    const error = await calls.incident(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(APITimeoutError);
    expect((error as Error).cause).toBeDefined();
  });

  it('throws APITimeoutError when the answer takes longer than the timeout', async () => {
    stub.enqueue({ delayMs: 300, json: {} });
    const error = await stub
      .client({ timeoutMs: 50 })
      .incidents.retrieve('inc_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APITimeoutError);
    expect((error as Error).message).toContain('50 ms');
  });
});
