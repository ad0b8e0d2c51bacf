import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  MAX_REPORT_BYTES,
  ZApproveTakedownRequest,
  ZCommentRequest,
  ZIncidentsQuery,
  ZReportRequest,
  ZResolutionsQuery,
  ZUsersQuery,
  ZWebhookCreateRequest,
  ZWebhookUpdateRequest,
  formatIssues,
} from '../src';

/** The issues of a rejected request as "field: message" lines. */
function rejection(schema: z.ZodType, input: unknown): string {
  const result = schema.safeParse(input);
  if (result.success) throw new Error(`expected ${JSON.stringify(input)} to be rejected`);
  return formatIssues(result.error.issues);
}

const file = (size: number, filename = 'evidence.png') => ({
  filename,
  content: new Uint8Array(size),
  contentType: 'image/png',
});

describe('report (POST /v1/incident/tkd and /monitor)', () => {
  it.each([
    { url: 'https://examp1e-login.com/verify' },
    { url: 'examp1e-login.com' },
    { url: 'examp1e-login.com/login?x=1', reportedBy: 'ana@example.com', comment: '' },
    { incidentType: 'email', subject: 'phisher@bad.example' },
    { incidentType: 'phone', subject: '+14155550123', clientId: 'client_2' },
    { incidentType: 'ipv4', subject: '192.0.2.10', comment: 'seen in SMS' },
    { url: 'https://bad.example', attachments: [file(10), file(20, 'b.pdf')] },
    // the spec: url is required for domain/url incidents "unless subject is given"
    { subject: 'examp1e-login.com' },
    { subject: 'https://examp1e-login.com/verify', comment: '' },
    // an IPv4 host, an internationalised top-level domain in ASCII and in unicode form
    { url: 'http://203.0.113.7/login' },
    { url: 'examp1e-login.xn--p1ai' },
    { url: 'https://пример.рф/login' },
    { url: 'пример.рф' },
  ])('accepts %o', (report) => {
    expect(ZReportRequest.safeParse(report).success).toBe(true);
  });

  it.each([
    [{}, 'url: url is required unless subject is given'],
    [
      { subject: 'x@y.example' },
      'subject: subject must be an http(s) URL or a domain name when incidentType is not given',
    ],
    [{ subject: 'not a url' }, 'subject: subject must be an http(s) URL or a domain name'],
    [{ incidentType: 'email' }, 'subject: subject is required when incidentType is email'],
    [
      { incidentType: 'email', subject: 'not-an-email' },
      'subject: subject must be an email address',
    ],
    [
      { incidentType: 'phone', subject: '0207 946 0000' },
      'subject: subject must be an E.164 phone number',
    ],
    [{ incidentType: 'ipv4', subject: '300.1.1.1' }, 'subject: subject must be an IPv4 address'],
    [
      { incidentType: 'domain', subject: 'x.example' },
      'incidentType: incidentType must be one of email, phone, ipv4',
    ],
    [{ url: 'not a url' }, 'url: url must be an http(s) URL or a domain name'],
    [{ url: 'ftp://files.example' }, 'url: url must be an http(s) URL or a domain name'],
    [
      { url: 'x.example', comment: null },
      'comment: comment must be a string when present (null is rejected)',
    ],
    [{ url: 'x.example', reportedBy: 'ana' }, 'reportedBy: reportedBy must be an email address'],
    [
      { url: 'x.example', idempotencyKey: 'k' },
      'idempotencyKey: idempotencyKey is not a field of a report',
    ],
  ])('rejects %o naming the field and the rule', (report, expected) => {
    expect(rejection(ZReportRequest, report)).toContain(expected);
  });

  it('names every problem at once, field rules and cross-field rules together', () => {
    const message = rejection(ZReportRequest, {
      incidentType: 'phone',
      subject: '123',
      comment: null,
      extra: 1,
    });
    expect(message).toContain('comment: comment must be a string when present');
    expect(message).toContain('subject: subject must be an E.164 phone number');
    expect(message).toContain('extra: extra is not a field of a report');
  });

  it('allows 12 attachments and rejects a 13th', () => {
    const twelve = Array.from({ length: 12 }, (_, i) => file(1, `f${i}.png`));
    expect(ZReportRequest.safeParse({ url: 'x.example', attachments: twelve }).success).toBe(true);
    expect(
      rejection(ZReportRequest, { url: 'x.example', attachments: [...twelve, file(1)] }),
    ).toContain('attachments: attachments accepts at most 12 files');
  });

  it('rejects a report of 10 MB or more in total and accepts one just under', () => {
    const textBytes = 'x.example'.length;
    const under = [file(MAX_REPORT_BYTES - textBytes - 1)];
    expect(ZReportRequest.safeParse({ url: 'x.example', attachments: under }).success).toBe(true);
    const over = [file(6_000_000, 'a.bin'), file(4_000_000, 'b.bin')];
    expect(rejection(ZReportRequest, { url: 'x.example', attachments: over })).toMatch(
      /^attachments: a report must total under 10000000 bytes/,
    );
  });

  it('rejects an attachment that is not a file', () => {
    expect(
      rejection(ZReportRequest, {
        url: 'x.example',
        attachments: [{ filename: 'a', content: 'text' }],
      }),
    ).toContain('attachments[0].content: attachments[].content must be a Blob or a Uint8Array');
  });
});

describe('approve-takedown', () => {
  it('accepts an author of 1 to 256 characters', () => {
    expect(ZApproveTakedownRequest.safeParse({ author: 'Ana Silva' }).success).toBe(true);
    expect(ZApproveTakedownRequest.safeParse({ author: 'a'.repeat(256) }).success).toBe(true);
  });

  it.each([
    [{}, 'author: author is required and must be a string'],
    [{ author: 42 }, 'author: author is required and must be a string'],
    [{ author: '' }, 'author: author must not be empty'],
    [{ author: '   ' }, 'author: author must not be empty'],
    [{ author: 'a'.repeat(257) }, 'author: author must be at most 256 characters'],
  ])('rejects %o', (request, expected) => {
    expect(rejection(ZApproveTakedownRequest, request)).toContain(expected);
  });
});

describe('comment', () => {
  it('accepts a comment with or without an author email', () => {
    expect(ZCommentRequest.safeParse({ comment: 'Please prioritise' }).success).toBe(true);
    expect(ZCommentRequest.safeParse({ comment: 'x', author: 'ana@example.com' }).success).toBe(
      true,
    );
  });

  it.each([
    [{ comment: null }, 'comment: comment is required and must be a non-null string'],
    [{ comment: '' }, 'comment: comment must not be empty'],
    [{ comment: 'x', author: 'Ana' }, 'author: author must be an email address'],
  ])('rejects %o', (request, expected) => {
    expect(rejection(ZCommentRequest, request)).toContain(expected);
  });
});

describe('incidents query', () => {
  it('accepts every documented filter, typed or as query-string text', () => {
    const typed = ZIncidentsQuery.parse({
      clientId: 'c',
      fromDate: '2026-01-01T00:00:00.000Z',
      toDate: '2026-02-01',
      status: 'takedown_success',
      incidentType: 'domain',
      limit: 100,
      cursor: 'abc',
      includeTotal: true,
    });
    expect(typed.limit).toBe(100);
    expect(ZIncidentsQuery.parse({ limit: '50', includeTotal: 'false' })).toEqual({
      limit: 50,
      includeTotal: false,
    });
  });

  it.each([
    [
      { includeTotal: true, statusVerbose: 'closed' },
      'includeTotal: includeTotal cannot be combined with statusVerbose',
    ],
    [
      { reinitiatedAfter: 'success' },
      'reinitiatedAfter: reinitiatedAfter is a resolutions filter and is never sent to /v1/incidents',
    ],
    [
      { minTakedownAttempts: 2 },
      'minTakedownAttempts: minTakedownAttempts is a resolutions filter',
    ],
    [{ search: 'inc_1' }, 'search: search is a resolutions filter'],
    [{ fromDate: '01/02/2026' }, 'fromDate: fromDate must be an ISO 8601 date'],
    [{ status: 'other' }, 'status: status must be one of pending_review'],
    [{ limit: 0 }, 'limit: limit must be a whole number of at least 1'],
  ])('rejects %o', (query, expected) => {
    expect(rejection(ZIncidentsQuery, query)).toContain(expected);
  });
});

describe('resolutions query (filter rules 1-6 and the 400 combinations)', () => {
  it('reports a bad value and a forbidden combination in one answer', () => {
    const message = rejection(ZResolutionsQuery, {
      search: 'x',
      limit: 500,
      minTakedownAttempts: 3,
    });
    expect(message).toContain('limit: limit must be a whole number from 1 to 100');
    expect(message).toContain(
      'minTakedownAttempts: minTakedownAttempts cannot be combined with search',
    );
  });

  it('accepts the attempt filters together with the ordinary filters', () => {
    const query = ZResolutionsQuery.parse({
      limit: 100,
      reinitiatedAfter: 'resolved',
      minTakedownAttempts: '100000',
      status: 'takedown_attempt_failed',
      includeTotal: true,
      fromDate: '2026-01-01',
    });
    expect(query.minTakedownAttempts).toBe(100000);
  });

  it('accepts search with clientId and limit only', () => {
    expect(ZResolutionsQuery.safeParse({ search: 'inc_1', clientId: 'c', limit: 10 }).success).toBe(
      true,
    );
  });

  it.each([
    [{ limit: 0 }, 'limit: limit must be a whole number from 1 to 100'],
    [{ limit: 101 }, 'limit: limit must be a whole number from 1 to 100'],
    [{ limit: '2.5' }, 'limit: limit must be a whole number from 1 to 100'],
    [
      { reinitiatedAfter: 'failed' },
      'reinitiatedAfter: reinitiatedAfter must be one of success, resolved',
    ],
    [
      { minTakedownAttempts: 0 },
      'minTakedownAttempts: minTakedownAttempts must be a whole number from 1 to 100000',
    ],
    [
      { minTakedownAttempts: 100001 },
      'minTakedownAttempts: minTakedownAttempts must be a whole number from 1 to 100000',
    ],
    [
      { minTakedownAttempts: 1.5 },
      'minTakedownAttempts: minTakedownAttempts must be a whole number',
    ],
    [{ toDate: 'tomorrow' }, 'toDate: toDate must be an ISO 8601 date'],
    [{ status: 'n/a' }, 'status: status must be one of'],
    [
      { search: 'x', status: 'closed' },
      'status: status cannot be combined with search (search combines only with clientId and limit)',
    ],
    [{ search: 'x', cursor: 'c' }, 'cursor: cursor cannot be combined with search'],
    [
      { search: 'x', reinitiatedAfter: 'success' },
      'reinitiatedAfter: reinitiatedAfter cannot be combined with search',
    ],
    [
      { search: 'x', minTakedownAttempts: 2 },
      'minTakedownAttempts: minTakedownAttempts cannot be combined with search',
    ],
    [
      { statusVerbose: 'closed', reinitiatedAfter: 'success' },
      'reinitiatedAfter: reinitiatedAfter cannot be combined with statusVerbose',
    ],
    [
      { statusVerbose: 'closed', minTakedownAttempts: 3 },
      'minTakedownAttempts: minTakedownAttempts cannot be combined with statusVerbose',
    ],
  ])('rejects %o', (query, expected) => {
    expect(rejection(ZResolutionsQuery, query)).toContain(expected);
  });
});

describe('users query', () => {
  it('accepts limit 1..200, offset >= 0 and a known role', () => {
    expect(
      ZUsersQuery.safeParse({ limit: 200, offset: 0, role: 'admin', search: 'ana' }).success,
    ).toBe(true);
  });

  it.each([
    [{ limit: 201 }, 'limit: limit must be a whole number from 1 to 200'],
    [{ limit: 0 }, 'limit: limit must be a whole number from 1 to 200'],
    [{ offset: -1 }, 'offset: offset must be a whole number of at least 0'],
    [{ role: 'owner' }, 'role: role must be one of superuser, parentadmin, user, admin'],
  ])('rejects %o', (query, expected) => {
    expect(rejection(ZUsersQuery, query)).toContain(expected);
  });
});

describe('webhook subscription', () => {
  const valid = {
    url: 'https://connector.example/webhooks',
    events: ['incident.created', 'incident.status_changed'],
    description: 'Zendesk',
  };

  it('accepts url, events and description', () => {
    expect(ZWebhookCreateRequest.safeParse(valid).success).toBe(true);
  });

  it.each([
    [{ ...valid, url: '/relative' }, 'url: url must be an absolute http(s) URL'],
    [{ ...valid, events: [] }, 'events: events must name at least one event'],
    [{ ...valid, events: ['incident.deleted'] }, 'events[0]: events[] must be one of webhook.test'],
    [
      { ...valid, events: ['incident.created', 'incident.created'] },
      'events: events must not repeat an event',
    ],
    [{ url: valid.url, events: valid.events }, 'description: description is required'],
  ])('rejects %o', (request, expected) => {
    expect(rejection(ZWebhookCreateRequest, request)).toContain(expected);
  });

  it('requires an update to change something', () => {
    expect(rejection(ZWebhookUpdateRequest, {})).toContain(
      'must change at least one of url, events, description',
    );
    expect(ZWebhookUpdateRequest.safeParse({ description: 'new' }).success).toBe(true);
  });
});
