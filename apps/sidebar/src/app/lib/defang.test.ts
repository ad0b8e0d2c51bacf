import { describe, expect, it } from 'vitest';
import { defang } from './defang';

describe('defang', () => {
  it('neutralises the scheme and every dot of a URL', () => {
    expect(defang('https://login.example.com/a.php?x=1')).toBe(
      'hxxps[:]//login[.]example[.]com/a[.]php?x=1',
    );
    expect(defang('http://example.com')).toBe('hxxp[:]//example[.]com');
  });

  it('defangs bare domains, IPv4 and email addresses', () => {
    expect(defang('example.com')).toBe('example[.]com');
    expect(defang('192.168.0.1')).toBe('192[.]168[.]0[.]1');
    expect(defang('phish@bad.example')).toBe('phish[@]bad[.]example');
  });

  it('breaks other schemes such as javascript: and data:', () => {
    expect(defang('javascript:alert(1)')).toBe('javascript[:]alert(1)');
    expect(defang('data:text/html,<b>x</b>')).toBe('data[:]text/html,<b>x</b>');
    expect(defang('HTTPS://EXAMPLE.COM')).toBe('HXXPS[:]//EXAMPLE[.]COM');
  });

  it('is idempotent', () => {
    const once = defang('https://a.example.com/x@y');
    expect(defang(once)).toBe(once);
  });

  it('leaves a phone number untouched', () => {
    expect(defang('+441234567890')).toBe('+441234567890');
  });
});
