// What an admin types as the subdomain (a pasted Zendesk address included), the install
// pages' one stylesheet allowed by its hash, dead letters and
// setup's outcome described in codes.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ZendeskConnectionError,
  ZendeskForbiddenError,
  type ZendeskClient,
} from '@incident-desk/zendesk-api';
import type { DatabaseAccountContextProvider } from '../src/accounts/account-context-provider';
import { listZendeskGroups } from '../src/admin/zendesk-groups';
import { htmlPage, PAGE_STYLE, PAGE_STYLE_SOURCE, subdomainField } from '../src/accounts/html-page';
import { subdomainFromInput } from '@incident-desk/zendesk-api';
import { problemOf, workOf } from '../src/admin/dead-letter-codes';
import { ACCOUNT_SETUP_QUEUE } from '../src/accounts';
import { AccountUnavailableError } from '../src/accounts/account-context';
import { finishedReport, SetupStoppedError, stoppedReport } from '../src/accounts/setup-outcome';
import type { SetupResult } from '../src/setup';
import { setupStep } from '../src/admin/first-run-steps';
import { firstRunTexts } from '../src/admin/first-run-texts';
import { INCIDENT_EVENT_QUEUE } from '../src/jobs/incident-event-job';
import { TICKET_EVENT_QUEUE } from '../src/jobs/ticket-event-job';
import { TICKET_WRITE_QUEUE } from '../src/jobs/ticket-write-queue';

describe('subdomainFromInput', () => {
  it.each([
    ['acme', 'acme'],
    ['  ACME ', 'acme'],
    ['acme.zendesk.com', 'acme'],
    ['https://acme.zendesk.com/agent', 'acme'],
    ['https://acme.zendesk.com/agent/tickets/12?x=1', 'acme'],
    ['http://Acme-Support.zendesk.com', 'acme-support'],
  ])('%j gives %j', (input, expected) => {
    expect(subdomainFromInput(input)).toBe(expected);
  });

  it.each([
    '',
    'a.b',
    'https://acme.example.com',
    'https://evil.com/acme.zendesk.com',
    'https://acme.zendesk.com.evil.com',
    'javascript:alert(1)',
    '-acme',
    'a_b',
    'https://a.b.zendesk.com',
  ])('refuses %j', (input) => {
    expect(subdomainFromInput(input)).toBeNull();
  });

  it('refuses what is not a string', () => {
    expect(subdomainFromInput(['acme'])).toBeNull();
    expect(subdomainFromInput(undefined)).toBeNull();
  });
});

describe('the install pages’ stylesheet', () => {
  it('is inline, constant, and the CSP source is its SHA-256', () => {
    const page = htmlPage('Install', '<p>x</p>');
    expect(page).toContain(`<style>${PAGE_STYLE}</style>`);
    expect(PAGE_STYLE_SOURCE).toBe(
      `'sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}'`,
    );
    // Garden's system font stack, never the browser's default serif
    expect(PAGE_STYLE).toMatch(/body\{[^}]*font-family:system-ui,[^;}]*sans-serif[;}]/);
    expect(PAGE_STYLE).not.toMatch(/Times/);
  });
});

describe('the subdomain field of the server-rendered forms', () => {
  it('has no pattern attribute, and keeps what was typed after a refusal, escaped', () => {
    expect(subdomainField()).not.toContain('pattern=');
    expect(subdomainField()).not.toContain('value=');
    const refused = subdomainField('"><script>alert(1)</script>', true);
    expect(refused).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(refused).not.toContain('<script>');
    expect(refused).toContain('aria-invalid="true"');
    expect(refused).toContain('aria-describedby="error subdomain-hint"');
  });
});

describe('dead letters in codes', () => {
  it('names the party and the HTTP status instead of echoing "500 ServiceUnavailable"', () => {
    expect(
      problemOf(
        TICKET_EVENT_QUEUE,
        'InternalServerError: incidents.comment: 500 ServiceUnavailable',
      ),
    ).toEqual({ code: 'http_status', party: 'incident_service', status: 500 });
    expect(problemOf(TICKET_WRITE_QUEUE, 'Zendesk answered 422')).toEqual({
      code: 'http_status',
      party: 'zendesk',
      status: 422,
    });
    expect(problemOf(ACCOUNT_SETUP_QUEUE, 'upstream said 418 teapot')).toEqual({
      code: 'http_status',
      party: 'other_side',
      status: 418,
    });
    expect(problemOf(INCIDENT_EVENT_QUEUE, 'APITimeoutError: no response within 100 ms')).toEqual({
      code: 'timeout',
      party: 'zendesk',
    });
    expect(problemOf(TICKET_WRITE_QUEUE, 'ECONNREFUSED 127.0.0.1')).toEqual({
      code: 'unreachable',
      party: 'zendesk',
    });
    expect(problemOf(TICKET_EVENT_QUEUE, 'worker crashed')).toEqual({
      code: 'stopped_with',
      reason: 'worker crashed',
    });
    expect(problemOf(TICKET_EVENT_QUEUE, 'x'.repeat(300))).toEqual({
      code: 'stopped_with',
      reason: 'x'.repeat(200),
    });
    expect(problemOf(TICKET_EVENT_QUEUE, '')).toEqual({ code: 'no_reason' });
  });

  it('names what failed, per queue and kind (what Retry does follows from it)', () => {
    expect(workOf(TICKET_EVENT_QUEUE, 'report')).toBe('ticket_report');
    expect(workOf(TICKET_EVENT_QUEUE, 'comment')).toBe('ticket_comments');
    expect(workOf(TICKET_EVENT_QUEUE, 'action')).toBe('ticket_action');
    expect(workOf(TICKET_EVENT_QUEUE, undefined)).toBe('ticket_change');
    expect(workOf(INCIDENT_EVENT_QUEUE, undefined)).toBe('incident_update');
    expect(workOf(TICKET_WRITE_QUEUE, undefined)).toBe('ticket_write');
    expect(workOf(ACCOUNT_SETUP_QUEUE, undefined)).toBe('account_setup');
    expect(workOf('pgboss.other', undefined)).toBe('background_job');
  });
});

describe('setup’s outcome in codes, with the English message it always had', () => {
  it('names why a run stopped: its time limit, an account that cannot act, anything else', () => {
    expect(stoppedReport(new SetupStoppedError())).toMatchObject({
      ok: false,
      outcome: { code: 'ran_too_long' },
      message: expect.stringMatching(/^Setup stopped: it ran past its time limit/),
    });
    expect(
      stoppedReport(new AccountUnavailableError('acc', 'reauthorization_required')).outcome,
    ).toEqual({ code: 'account_unavailable', reason: 'reauthorization_required' });
    expect(stoppedReport(new Error('boom'))).toMatchObject({
      outcome: { code: 'stopped', reason: 'boom' },
      message: 'Setup stopped: boom',
    });
  });

  it('counts failed steps and adds Zendesk’s webhook test and the narrowing when they went wrong', () => {
    const result = {
      ok: false,
      steps: [
        { step: 'trigger', target: 'a', outcome: 'failed' },
        { step: 'trigger', target: 'b', outcome: 'created' },
        { step: 'view', target: 'c', outcome: 'failed' },
      ],
    } as unknown as SetupResult;
    const report = finishedReport(
      result,
      { outcome: 'refused', status: 502, message: 'the connector answered 502' },
      { scopeAfter: 'read write', narrowing: { code: 'kept_wider', scope: 'read write' } },
    );
    expect(report).toMatchObject({
      ok: false,
      outcome: { code: 'finished_with_failures', failedSteps: 2 },
      webhookTest: { outcome: 'refused', status: 502 },
      narrowing: { code: 'kept_wider', scope: 'read write' },
      message:
        "Setup finished with 2 failed step(s). Zendesk's webhook test: the connector answered 502 Zendesk kept scopes beyond the steady state (read write).",
    });
    const fine = finishedReport(
      { ok: true, steps: [] } as unknown as SetupResult,
      {
        outcome: 'delivered',
      },
      { scopeAfter: 'read' },
    );
    expect(fine).toEqual({
      ok: true,
      outcome: { code: 'finished' },
      message: 'Setup finished.',
      steps: [],
      scopeAfter: 'read',
    });
  });
});

describe('a failed setup on the first-run checklist', () => {
  const failed = {
    state: 'failed' as const,
    requestedAt: null,
    finishedAt: null,
    report: stoppedReport(new Error('boom')),
  };

  it('names the run’s English message to an English admin, and none to a French admin', () => {
    expect(setupStep(failed, true, firstRunTexts('en')).next).toBe(
      'Setup failed: Setup stopped: boom. Fix what it names, then run it again.',
    );
    const french = setupStep(failed, true, firstRunTexts('fr')).next;
    expect(french).toMatch(/^La configuration a échoué : la section Configuration dit pourquoi/);
    expect(french).not.toContain('boom');
  });
});

describe('the Zendesk groups for the picker', () => {
  function accountsListing(
    list: () => AsyncIterable<{ id: number; name: string; deleted?: boolean }>,
  ) {
    return {
      zendeskFor: async () => ({ groups: { list } }) as unknown as ZendeskClient,
    } as unknown as DatabaseAccountContextProvider;
  }

  it('lists live groups by name, deleted ones left out', async () => {
    const result = await listZendeskGroups(
      accountsListing(async function* () {
        yield { id: 2, name: 'Tier 2' };
        yield { id: 3, name: 'Gone', deleted: true };
        yield { id: 1, name: 'Abuse desk' };
      }),
      'account',
    );
    expect(result).toEqual({
      groups: [
        { id: 1, name: 'Abuse desk' },
        { id: 2, name: 'Tier 2' },
      ],
    });
  });

  it('a refusal by Zendesk says so and asks for the id instead', async () => {
    const forbidden = await listZendeskGroups(
      accountsListing(async function* () {
        yield* [];
        throw new ZendeskForbiddenError({
          status: 403,
          headers: new Headers(),
          body: {},
          method: 'GET',
          path: '/api/v2/groups.json',
        });
      }),
      'account',
    );
    expect(forbidden).toMatchObject({ error: { status: 409, code: 'groups_not_readable' } });
    const down = await listZendeskGroups(
      accountsListing(async function* () {
        yield* [];
        throw new ZendeskConnectionError('connection refused');
      }),
      'account',
    );
    expect(down).toMatchObject({ error: { status: 502, code: 'zendesk_unavailable' } });
  });
});
