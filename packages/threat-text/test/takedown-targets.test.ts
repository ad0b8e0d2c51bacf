// Which found threats the sidebar offers for a takedown, and in which order.
import { describe, expect, it } from 'vitest';
import { byTakedownRank, isWellKnownSite, type TThreatKind } from '../src';

const threat = (kind: TThreatKind, value: string) => ({ kind, value });

describe('byTakedownRank', () => {
  it('puts URLs before domains, emails, phones and IPs, first seen first within a kind', () => {
    const ranked = byTakedownRank([
      threat('phone', '+14155550123'),
      threat('email', 'billing@pay-now.example'),
      threat('ipv4', '203.0.113.9'),
      threat('url', 'https://pay-now.example/verify'),
      threat('domain', 'pay-now.example'),
      threat('url', 'https://second.example/x'),
    ]);
    expect(ranked.map((t) => t.value)).toEqual([
      'https://pay-now.example/verify',
      'https://second.example/x',
      'pay-now.example',
      'billing@pay-now.example',
      '+14155550123',
      '203.0.113.9',
    ]);
  });
});

describe('isWellKnownSite', () => {
  it.each([
    [threat('domain', 'google.com'), true, 'the domain itself'],
    [threat('domain', 'accounts.google.com'), true, 'a subdomain'],
    [threat('url', 'https://www.google.com'), true, 'the root page'],
    [threat('url', 'https://support.apple.com/'), true, 'a subdomain’s root page'],
    [threat('email', 'support@microsoft.com'), true, 'the company’s address'],
    [threat('url', 'https://docs.google.com/forms/d/e/1FAIpQ/viewform'), false, 'a hosted form'],
    [threat('email', 'scammer@gmail.com'), false, 'free mail: often the scammer’s'],
    [threat('domain', 'google.com.evil.example'), false, 'a lookalike ending elsewhere'],
    [threat('domain', 'notgoogle.com'), false, 'a suffix that is not a subdomain'],
    [threat('url', 'https://paypal.com.secure-login.example/'), false, 'a lookalike host'],
    [threat('phone', '+14155550123'), false, 'phones never'],
    [threat('url', 'https://www.google.com/search?q=evil.example'), true, 'a Google search'],
    [threat('url', 'https://google.fr/search?q=evil'), true, 'a country’s Google search'],
    [threat('url', 'https://www.bing.com/search?q=evil.example'), true, 'a Bing search'],
    [threat('url', 'https://duckduckgo.com/?q=evil.example'), true, 'a DuckDuckGo search'],
    [threat('url', 'https://html.duckduckgo.com/html/?q=x'), false, 'only the hosts named'],
    [threat('url', 'https://search.yahoo.com/search?p=evil'), true, 'a Yahoo search'],
    [threat('url', 'https://evil.example/search?q=x'), false, 'a search path elsewhere'],
    [threat('url', 'https://google.com.evil.example/search?q=x'), false, 'a lookalike search'],
  ])('%o is %s (%s)', (value, expected) => {
    expect(isWellKnownSite(value)).toBe(expected);
  });
});
