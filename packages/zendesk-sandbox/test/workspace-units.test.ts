import { generateKeyPairSync } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { initialsOf, renderAvatar } from '../src/workspace/avatar';
import { jsonForScriptTag } from '../src/workspace/json-for-script-tag';
import {
  settingValues,
  substitute,
  substituteDeep,
} from '../src/workspace/substitute-placeholders';
import { ticketChangeEvents, type TicketSnapshot } from '../src/workspace/ticket-events';
import { signZafToken, ZAF_TOKEN_LIFETIME_SECONDS } from '../src/workspace/sign-zaf-token';
import { zafTimeZone } from '../src/workspace/zaf-user';

const snapshot = (over: Partial<TicketSnapshot> = {}): TicketSnapshot => ({
  subject: 's',
  status: 'open',
  tags: ['a', 'b'],
  customFields: { '1': 'x' },
  ...over,
});

describe('ticket change events', () => {
  it('raises nothing for an unchanged ticket or a mere tag reordering', () => {
    expect(ticketChangeEvents(snapshot(), snapshot({ tags: ['b', 'a'] }))).toEqual([]);
  });

  it('raises one event per changed property, with the new value', () => {
    expect(
      ticketChangeEvents(
        snapshot(),
        snapshot({ subject: 't', status: 'solved', tags: ['a'], customFields: { '2': 5 } }),
      ),
    ).toEqual([
      { name: 'ticket.subject.changed', payload: 't' },
      { name: 'ticket.status.changed', payload: 'solved' },
      { name: 'ticket.tags.changed', payload: ['a'] },
      { name: 'ticket.custom_field_1.changed', payload: null },
      { name: 'ticket.custom_field_2.changed', payload: 5 },
    ]);
  });
});

describe('currentUser time zone', () => {
  const winter = new Date('2026-01-15T12:00:00Z');
  it('maps Rails names and passes IANA names through, with the offset at that date', () => {
    expect(zafTimeZone('Eastern Time (US & Canada)', winter)).toEqual({
      name: 'Eastern Time (US & Canada)',
      ianaName: 'America/New_York',
      offset: -300,
      formattedOffset: 'GMT-05:00',
    });
    expect(zafTimeZone('Europe/Berlin', winter)).toMatchObject({
      ianaName: 'Europe/Berlin',
      offset: 60,
    });
    expect(zafTimeZone('Asia/Kolkata', winter)).toMatchObject({
      offset: 330,
      formattedOffset: 'GMT+05:30',
    });
  });

  it('reports UTC for a zone it does not know', () => {
    expect(zafTimeZone('Atlantis', winter)).toEqual({
      name: 'Atlantis',
      ianaName: 'Etc/UTC',
      offset: 0,
      formattedOffset: 'GMT+00:00',
    });
  });
});

describe('placeholder substitution', () => {
  const values = settingValues({ token: 'T', port: 8080, missing: null });
  it('replaces known placeholders, tolerates spaces, leaves unknown ones as written', () => {
    expect(
      substitute(
        'a {{setting.token}} {{ setting.port }} {{setting.nope}} {{setting.missing}}',
        values,
      ),
    ).toBe('a T 8080 {{setting.nope}} {{setting.missing}}');
  });

  it('reaches every string of nested data', () => {
    expect(
      substituteDeep({ a: ['{{setting.token}}', 1], b: { c: '{{setting.port}}' } }, values),
    ).toEqual({
      a: ['T', 1],
      b: { c: '8080' },
    });
  });
});

describe('the ZAF JWT of a signedUrls location', () => {
  it('is RS256 with the app key: iss the account, aud the installation, sub the user, exp', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const now = new Date('2026-11-21T12:00:00Z');
    const token = await signZafToken({
      key: privateKey,
      subdomain: 'demo',
      installationId: 55,
      userId: 7,
      now,
    });
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'RS256', typ: 'JWT' });
    const iat = now.getTime() / 1000;
    expect(decodeJwt(token)).toEqual({
      iss: 'demo.zendesk.com',
      aud: 'https://demo.zendesk.com/api/v2/apps/installations/55.json',
      sub: 'https://demo.zendesk.com/api/v2/users/7.json',
      context: { product: 'support', location: 'ticket_sidebar' },
      iat,
      exp: iat + ZAF_TOKEN_LIFETIME_SECONDS,
    });
    await expect(jwtVerify(token, publicKey, { currentDate: now })).resolves.toBeTruthy();
  });
});

// escapeHtml is pinned by packages/threat-text/test/threat-text.test.ts.
describe('escaping', () => {
  it('keeps embedded JSON from closing its script element', () => {
    const json = jsonForScriptTag({ s: '</script><script>alert(1)</script>\u2028' });
    expect(json).not.toMatch(/<|>|\u2028/);
    expect(JSON.parse(json)).toEqual({ s: '</script><script>alert(1)</script>\u2028' });
  });
});

describe('avatars', () => {
  it('show up to two initials, escaped, in the same colour for the same name', () => {
    expect(initialsOf('Erin Enduser')).toBe('EE');
    expect(initialsOf('Ada Lovelace King')).toBe('AK');
    expect(initialsOf('  ada ')).toBe('A');
    expect(initialsOf('')).toBe('?');
    expect(renderAvatar('<b>x</b> <i>')).toContain('&lt;&lt;</span>');
    expect(renderAvatar('Erin Enduser')).toBe(renderAvatar('Erin Enduser'));
    expect(renderAvatar('Erin Enduser', 'small')).toMatch(/^<span class="avatar small tone-[1-6]"/);
  });
});
