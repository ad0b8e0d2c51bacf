// The one table of the threat-text rule: every case the connector's notes, the sidebar and the
// sandboxes' pages rely on. Each row: the function, its input, the expected output, and why.
import { describe, expect, it } from 'vitest';
import { cutToLength, defang, defangLinksIn, escapeHtml, plainText } from '../src';

type Row = [fn: string, input: string, expected: string, why: string];

const FUNCTIONS: Record<string, (input: string) => string> = {
  defang,
  defangLinksIn,
  escapeHtml,
  plainText,
  cut8: (input) => cutToLength(input, 8),
};

const TABLE: Row[] = [
  // defang: a whole value (threat URL, domain, email, IP, subject)
  [
    'defang',
    'https://login.example.com/a.php?x=1',
    'hxxps[:]//login[.]example[.]com/a[.]php?x=1',
    'scheme and every dot',
  ],
  ['defang', 'http://example.com', 'hxxp[:]//example[.]com', 'http'],
  ['defang', 'HTTP://evil.example', 'hxxp[:]//evil[.]example', 'upper-case scheme: hxxp'],
  ['defang', 'HTTPS://EXAMPLE.COM', 'hxxps[:]//EXAMPLE[.]COM', 'the rest keeps its case'],
  ['defang', 'ftp://files.example.net', 'ftp[:]//files[.]example[.]net', 'other schemes lose ://'],
  [
    'defang',
    'see https://a.b/c and http://d.e and javascript://x.y',
    'see hxxps[:]//a[.]b/c and hxxp[:]//d[.]e and javascript[:]//x[.]y',
    'every scheme in the value',
  ],
  ['defang', 'example.com', 'example[.]com', 'bare domain'],
  ['defang', '203.0.113.7', '203[.]0[.]113[.]7', 'IPv4: every dot'],
  [
    'defang',
    'phisher@evil.example',
    'phisher[@]evil[.]example',
    'email: the one rule brackets @ too',
  ],
  ['defang', 'ceo@example.com', 'ceo[@]example[.]com', 'email'],
  ['defang', 'javascript:alert(1)', 'javascript[:]alert(1)', 'scheme without //'],
  ['defang', 'JavaScript:alert(1)', 'JavaScript[:]alert(1)', 'any case'],
  [
    'defang',
    'data:text/html,<b>x</b>',
    'data[:]text/html,<b>x</b>',
    'data: (markup stays text: escaping is the renderer’s job)',
  ],
  ['defang', 'mailto:phisher@evil.example', 'mailto[:]phisher[@]evil[.]example', 'mailto:'],
  ['defang', 'Login: Bank', 'Login: Bank', 'a word and a colon is not a scheme'],
  [
    'defang',
    'https://evil。example．com/x',
    'hxxps[:]//evil[。]example[．]com/x',
    'ideographic and fullwidth dots',
  ],
  ['defang', 'evil｡example', 'evil[｡]example', 'halfwidth ideographic dot'],
  [
    'defang',
    'https://brand.example@evil.example/',
    'hxxps[:]//brand[.]example[@]evil[.]example/',
    'user-info trick',
  ],
  ['defang', '  https://x.example  ', 'hxxps[:]//x[.]example', 'trimmed'],
  ['defang', '+447700900123', '+447700900123', 'a phone number is left alone'],
  ['defang', 'hxxps[:]//example[.]com', 'hxxps[:]//example[.]com', 'idempotent'],
  [
    'defang',
    'hxxps[:]//a[.]example[.]com/x[@]y',
    'hxxps[:]//a[.]example[.]com/x[@]y',
    'idempotent with @',
  ],
  ['defang', 'evil[.]example.com', 'evil[.]example[.]com', 'a half-defanged value is completed'],
  // defangLinksIn: free text (analyst messages, waitForClient reasons, page titles, registrars)
  [
    'defangLinksIn',
    'Moved to http://x.bad.example/a. Done, e.g. now.',
    'Moved to hxxp[:]//x[.]bad[.]example/a[.] Done, e.g. now.',
    'a URL runs to the next space',
  ],
  [
    'defangLinksIn',
    'host login.bad.example is down',
    'host login[.]bad[.]example is down',
    'bare host',
  ],
  ['defangLinksIn', 'Done. Next step', 'Done. Next step', 'a sentence keeps its full stop'],
  ['defangLinksIn', 'see evil.example.', 'see evil[.]example.', 'the full stop after a host stays'],
  [
    'defangLinksIn',
    'versions 1.2 and 2.0.1, e.g. i.e. U.S. No.1',
    'versions 1.2 and 2.0.1, e.g. i.e. U.S. No.1',
    'numbers and abbreviations are not hosts',
  ],
  [
    'defangLinksIn',
    'version 1.2.3.4',
    'version 1[.]2[.]3[.]4',
    'a dotted quad is read as an IPv4 address',
  ],
  ['defangLinksIn', 'from 203.0.113.7 today', 'from 203[.]0[.]113[.]7 today', 'bare IPv4'],
  [
    'defangLinksIn',
    'at 203.0.113.7:8080/login.php now',
    'at 203[.]0[.]113[.]7:8080/login[.]php now',
    'IPv4 with port and path',
  ],
  ['defangLinksIn', 'not 999.1.1.1 or 1.2.3', 'not 999.1.1.1 or 1.2.3', 'not an IPv4 address'],
  [
    'defangLinksIn',
    'open hxxps[:]//evil。example．com now',
    'open hxxps[:]//evil[。]example[．]com now',
    'ideographic and fullwidth dots in a host',
  ],
  [
    'defangLinksIn',
    'go to пример.рф/login please',
    'go to пример[.]рф/login please',
    'internationalised domain with a path',
  ],
  [
    'defangLinksIn',
    'punycode xn--e1afmkfd.xn--p1ai!',
    'punycode xn--e1afmkfd[.]xn--p1ai!',
    'IDNA A-label top-level domain',
  ],
  [
    'defangLinksIn',
    'write to phisher@evil.example now',
    'write to phisher[@]evil[.]example now',
    'email',
  ],
  [
    'defangLinksIn',
    'mailto:phisher@evil.example',
    'mailto:phisher[@]evil[.]example',
    'mailto: the address is defanged',
  ],
  ['defangLinksIn', 'name evil.example@x', 'name evil[.]example[@]x', 'a host before an @'],
  [
    'defangLinksIn',
    '(see evil.example), then',
    '(see evil[.]example), then',
    'brackets and commas around a host',
  ],
  [
    'defangLinksIn',
    'url:https://x.example/a',
    'url:hxxps[:]//x[.]example/a',
    'a scheme inside a word',
  ],
  [
    'defangLinksIn',
    'a.example/https://b.example',
    'a[.]example/hxxps[:]//b[.]example',
    'a host before a URL in one word',
  ],
  ['defangLinksIn', '<b>evil.example</b>', '<b>evil[.]example</b>', 'markup around a host'],
  [
    'defangLinksIn',
    'evil\u200b.example',
    'evil\u200b[.]example',
    'a zero-width space does not hide a host',
  ],
  [
    'defangLinksIn',
    'Phishing www.phish-taxonomy.example',
    'Phishing www[.]phish-taxonomy[.]example',
    'www host',
  ],
  [
    'defangLinksIn',
    'hxxps[:]//evil[.]example/a and phisher[@]evil[.]example',
    'hxxps[:]//evil[.]example/a and phisher[@]evil[.]example',
    'idempotent',
  ],
  ['defangLinksIn', "Let's Encrypt R3", "Let's Encrypt R3", 'ordinary text'],
  ['defangLinksIn', 'a\n  b.example\tc', 'a\n  b[.]example\tc', 'whitespace kept as it is'],
  // escapeHtml
  [
    'escapeHtml',
    `<a href="x">'&'</a>`,
    '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;',
    'all five characters',
  ],
  ['escapeHtml', 'plain', 'plain', 'nothing to escape'],
  // plainText
  [
    'plainText',
    'a\u0000b\u001bc\nd\te\r\n',
    'abc\nd\te\r\n',
    'C0 controls dropped, line breaks and tabs kept',
  ],
  ['plainText', 'a\u007fb\u0085c\u009fd', 'abcd', 'DEL and C1 controls dropped'],
  // cutToLength (here 8)
  ['cut8', 'abcdefgh', 'abcdefgh', 'at the cap: whole'],
  ['cut8', 'abcdefghi', 'abcdefg…', 'over the cap: cut, with an ellipsis'],
  ['cut8', 'abcdef😀x', 'abcdef…', 'never half a character'],
];

describe('threat text', () => {
  it.each(TABLE)('%s(%j) -> %j: %s', (fn, input, expected) => {
    expect(FUNCTIONS[fn]!(input)).toBe(expected);
  });

  it('is idempotent on every row of the table', () => {
    for (const [fn, input] of TABLE) {
      if (fn !== 'defang' && fn !== 'defangLinksIn') continue;
      const once = FUNCTIONS[fn]!(input);
      expect(FUNCTIONS[fn]!(once), `${fn}(${input})`).toBe(once);
    }
  });

  it('escapes any value and treats null and undefined as empty', () => {
    expect(escapeHtml(42)).toBe('42');
    expect(escapeHtml(null)).toBe('');
    expect(escapeHtml(undefined)).toBe('');
  });

  it('leaves no live link in any output: no ://, no bare dot or @ between host characters', () => {
    for (const [fn, input] of TABLE) {
      if (fn !== 'defang') continue;
      const out = defang(input);
      expect(out, input).not.toMatch(/:\/\//);
      expect(out, input).not.toMatch(/[^[][.。．｡@][^\]]/u);
    }
  });
});
