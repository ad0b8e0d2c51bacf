// Threats found in a ticket: table tests written from the way abuse reports and
// forwarded phishing mails actually read, and the places the extractor must stay quiet.
import { describe, expect, it } from 'vitest';
import { extractThreats, normalizeThreat, refang, type ThreatSource } from '../src';

const OPTIONS = {
  ownHosts: ['acme.zendesk.com', 'connector.example.net'],
  ownEmails: ['support@brand.example', 'ada.agent@brand.example'],
  noteMarker: '[incident-desk]',
};

function fromText(body: string, subject?: string): ThreatSource {
  return { subject, comments: [{ id: 1, body, public: true, author: 'end-user' }] };
}

const found = (body: string) =>
  extractThreats(fromText(body), OPTIONS).map((t) => `${t.kind} ${t.value}`);

type Row = [text: string, expected: string[], why: string];

const TABLE: Row[] = [
  [
    'I got an SMS saying my parcel is held, link: https://brand-parcel.example/track?id=99 please check',
    ['url https://brand-parcel.example/track?id=99'],
    'a plain URL in a sentence',
  ],
  [
    'Reported site: hxxps[:]//login-brand[.]example/verify (defanged by our SOC)',
    ['url https://login-brand.example/verify'],
    'a defanged URL is refanged',
  ],
  [
    'Sender domain evil[.]com and also evil(.)net were used',
    ['domain evil.com', 'domain evil.net'],
    'defanged domains: [.] and (.)',
  ],
  [
    'The mail came from billing@brand-support.example (spoofed display name "Brand Billing").',
    ['email billing@brand-support.example'],
    'an email address with a sentence after it',
  ],
  ['From: phisher[at]evil[dot]example', ['email phisher@evil.example'], 'a defanged email'],
  [
    'They called me from +44 7700 900123 and then texted from +14155550123.',
    ['phone +447700900123', 'phone +14155550123'],
    'E.164 numbers, with and without spaces',
  ],
  [
    'Caller ID showed +1 (415) 555-0123, claiming to be the bank.',
    ['phone +14155550123'],
    'a phone number written the North American way',
  ],
  [
    'The page is hosted on 203.0.113.7, see also http://198.51.100.23/login.php',
    ['ipv4 203.0.113.7', 'url http://198.51.100.23/login.php'],
    'an IPv4 address and a URL on an address',
  ],
  [
    'Fake shop at www.brand-outlet.example/sale and BRAND-OUTLET.example.',
    ['url www.brand-outlet.example/sale', 'domain brand-outlet.example'],
    'a host with a path is a URL; a domain is lower-cased and keeps no full stop',
  ],
  [
    'Click <https://evil.example/a> or [here](https://evil.example/b).',
    ['url https://evil.example/a', 'url https://evil.example/b'],
    'markdown and angle brackets do not stick to the URL',
  ],
  [
    'Tricky: https://brand.example@evil.example/ and HTTPS://EVIL.EXAMPLE/Path',
    ['url https://brand.example@evil.example', 'url https://evil.example/Path'],
    'user-info stays in the value; scheme and host lower-cased, the path kept',
  ],
  [
    'Forwarded: john+offers@evil.example asked for my password',
    ['email john+offers@evil.example'],
    'a +tag local part',
  ],
];

const QUIET: Row[] = [
  ['Please see the attached invoice.pdf and screenshot.PNG', [], 'file names'],
  ['Our app is on version 1.2.3 (build 2.0.1.7), released 2024.01.15', [], 'versions and dates'],
  [
    'Call me at 10.30 on 15.01.2024, e.g. tomorrow, i.e. soon. U.S. time.',
    [],
    'times, abbreviations',
  ],
  ['It stopped working.Thanks for the help.Regards', [], 'sentences run together'],
  [
    'See https://acme.zendesk.com/agent/tickets/12 and https://p1.zdusercontent.com/attachment/1',
    [],
    "Zendesk's own links",
  ],
  ['Write to support@brand.example or support@acme.zendesk.com', [], 'own addresses'],
  ['The app at https://connector.example.net/sidebar/app answered', [], 'a host the caller names'],
  ['Order 12345678 placed at 2024-01-15 10:30:00 +0100', [], 'order numbers and a time zone'],
  ['a + b = c, +1 for this idea', [], 'plus signs that are not phone numbers'],
];

describe('extractThreats', () => {
  it.each(TABLE)('%s', (text, expected) => {
    expect(found(text)).toEqual(expected);
  });

  it.each(QUIET)('finds nothing in: %s', (text, expected) => {
    expect(found(text)).toEqual(expected);
  });

  it('lists a URL once when its mentions differ only by a trailing slash', () => {
    const threats = extractThreats({
      subject: 'Fake login at https://evil.example/login',
      comments: [
        {
          id: 1,
          body: 'The page: https://evil.example/login/ again',
          public: true,
          author: 'end-user',
        },
      ],
    });
    expect(threats.map((t) => t.value)).toEqual(['https://evil.example/login']);
    expect(threats[0]!.seenIn).toHaveLength(2);
  });

  it('skips the product’s own notes and the agent’s signature, and records where each was seen', () => {
    const source: ThreatSource = {
      subject: 'Phishing from evil.example',
      comments: [
        {
          id: 11,
          body: 'Hi, I received a mail linking hxxp://evil[.]example/login. Thanks',
          public: true,
          author: 'end-user',
        },
        {
          id: 12,
          body: 'Thanks, we look into evil.example.\n\nAda Agent\nBrand Security | brand.example | +14155550100',
          public: false,
          author: 'agent',
          signature: 'Ada Agent\nBrand Security | brand.example | +14155550100',
        },
        {
          id: 13,
          body: '[incident-desk] Reported to the incident service for takedown: hxxps[:]//other[.]example.',
          public: false,
          author: 'agent',
        },
      ],
    };
    const threats = extractThreats(source, OPTIONS);
    expect(threats).toEqual([
      {
        value: 'evil.example',
        kind: 'domain',
        display: 'evil[.]example',
        seenIn: [
          { in: 'subject' },
          { in: 'comment', commentId: 12, index: 1, public: false, author: 'agent' },
        ],
      },
      {
        value: 'http://evil.example/login',
        kind: 'url',
        display: 'hxxp[:]//evil[.]example/login',
        seenIn: [{ in: 'comment', commentId: 11, index: 0, public: true, author: 'end-user' }],
      },
    ]);
  });

  it('deduplicates by the normalised value, one place per comment', () => {
    const threats = extractThreats(
      fromText('evil.example EVIL.example evil[.]example evil.example.'),
      OPTIONS,
    );
    expect(threats).toHaveLength(1);
    expect(threats[0]!.seenIn).toHaveLength(1);
  });

  it('keeps hostile values inert: the display form is defanged and markup stays text', () => {
    const [threat] = extractThreats(
      fromText('go to https://evil.example/<script>alert(1)</script>'),
      OPTIONS,
    );
    // the closing `>` is read as punctuation after a link, as in `<https://…>`
    expect(threat!.display).toBe('hxxps[:]//evil[.]example/<script>alert(1)</script');
    expect(threat!.display).not.toMatch(/https?:\/\//);
  });

  it('matches `*.` own hosts on the host and its subdomains only', () => {
    const threats = extractThreats(
      fromText(
        'https://help.brand.example/a https://brand.example/b https://brand.example.evil.test/c',
      ),
      { ownHosts: ['*.brand.example'] },
    );
    expect(threats.map((t) => t.value)).toEqual(['https://brand.example.evil.test/c']);
  });

  it('names no host past DNS limits: over 253 characters, or a label over 63', () => {
    const long = `${'ab.'.repeat(100)}example`; // 307 characters
    const label = `${'a'.repeat(64)}.example`;
    expect(found(`see ${long} and ${label} and ok.example`)).toEqual(['domain ok.example']);
    expect(found(`https://${long}/login`)).toEqual([]);
    const fits = `${'a'.repeat(63)}.example`;
    expect(found(fits)).toEqual([`domain ${fits}`]);
  });

  it('stops at maxThreats', () => {
    const text = Array.from({ length: 50 }, (_, i) => `host${i}.example`).join(' ');
    expect(extractThreats(fromText(text), { maxThreats: 10 })).toHaveLength(10);
  });
});

describe('normalizeThreat and refang', () => {
  it.each([
    ['hxxps[:]//Evil[.]Example/', 'https://evil.example'],
    ['HTTPS://EVIL.EXAMPLE/Login', 'https://evil.example/Login'],
    ['https://evil.example/login/', 'https://evil.example/login'],
    ['https://evil.example/login/?next=/', 'https://evil.example/login/?next=/'],
    ['https://evil.example/login/#top', 'https://evil.example/login/#top'],
    ['Evil.Example.', 'evil.example'],
    ['mailto:Phisher@Evil.Example', 'phisher@evil.example'],
    ['+44 (7700) 900-123', '+447700900123'],
    ['203[.]0[.]113[.]7', '203.0.113.7'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeThreat(input)).toBe(expected);
  });

  it('leaves text without defanged tokens as it is', () => {
    const text = 'A normal sentence (with brackets) [and more] at 10:30.';
    expect(refang(text)).toBe(text);
  });
});
