// What an admin types as the subdomain (a pasted Zendesk address included), the install
// pages' one stylesheet allowed by its hash, and dead letters described in words.
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
import { describeProblem, describeRetry, describeWork } from '../src/admin/dead-letter-text';
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

describe('dead letters in words', () => {
  it('names the HTTP status instead of echoing "500 ServiceUnavailable"', () => {
    expect(
      describeProblem(
        TICKET_EVENT_QUEUE,
        'InternalServerError: incidents.comment: 500 ServiceUnavailable',
      ),
    ).toBe('The incident service had an internal error (HTTP 500).');
    expect(describeProblem(TICKET_WRITE_QUEUE, 'Zendesk answered 422')).toBe(
      'Zendesk refused the data (HTTP 422).',
    );
    expect(
      describeProblem(INCIDENT_EVENT_QUEUE, 'APITimeoutError: no response within 100 ms'),
    ).toBe('Zendesk did not answer in time.');
    expect(describeProblem(TICKET_EVENT_QUEUE, '')).toBe('It failed without a reason.');
  });

  it('says what failed and what Retry does, per kind', () => {
    expect(describeWork(TICKET_EVENT_QUEUE, 'report')).toMatch(/Reporting/);
    expect(describeWork(TICKET_EVENT_QUEUE, 'comment')).toMatch(/Forwarding/);
    expect(describeWork(INCIDENT_EVENT_QUEUE, undefined)).toMatch(/incident update to its ticket/);
    expect(describeRetry(TICKET_EVENT_QUEUE, 'report')).toMatch(/never sent twice/);
    expect(describeRetry(TICKET_WRITE_QUEUE, undefined)).toMatch(/cannot be retried/);
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
