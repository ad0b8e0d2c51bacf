import { describe, expect, it } from 'vitest';
import { normalizeSubdomain } from '@incident-desk/zendesk-api';
import { isAcceptableRedirectUri, zendeskBaseUrl } from '../src/accounts/zendesk-oauth-config';

describe('Zendesk OAuth configuration', () => {
  it('accepts HTTPS redirect URIs, and HTTP only on localhost', () => {
    expect(isAcceptableRedirectUri('https://connector.example.com/oauth/callback')).toBe(true);
    expect(isAcceptableRedirectUri('http://localhost:8787/oauth/callback')).toBe(true);
    expect(isAcceptableRedirectUri('http://127.0.0.1:8787/oauth/callback')).toBe(true);
    expect(isAcceptableRedirectUri('http://connector.example.com/oauth/callback')).toBe(false);
    expect(isAcceptableRedirectUri('https://connector.example.com/oauth/callback#x')).toBe(false);
    expect(isAcceptableRedirectUri('/oauth/callback')).toBe(false);
  });

  it('builds the base URL per subdomain from the template, refusing non-subdomains', () => {
    expect(zendeskBaseUrl('https://{subdomain}.zendesk.com', 'Acme')).toBe(
      'https://acme.zendesk.com',
    );
    expect(zendeskBaseUrl('http://localhost:8789/_z/{subdomain}/', 'demo')).toBe(
      'http://localhost:8789/_z/demo',
    );
    expect(() => zendeskBaseUrl('https://{subdomain}.zendesk.com', 'evil.com/')).toThrow();
    expect(normalizeSubdomain('-acme')).toBeNull();
    expect(normalizeSubdomain('a'.repeat(64))).toBeNull();
    expect(normalizeSubdomain(' acme-2 ')).toBe('acme-2');
  });
});
