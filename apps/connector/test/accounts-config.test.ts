import { describe, expect, it } from 'vitest';
import {
  isAcceptableRedirectUri,
  normalizeSubdomain,
  zendeskBaseUrl,
  zendeskOAuthConfigFromEnv,
} from '../src/accounts/zendesk-oauth-config';

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

  it('reads the environment with the requested lifetimes as defaults', () => {
    const config = zendeskOAuthConfigFromEnv({
      ZENDESK_BASE_URL_TEMPLATE: 'https://{subdomain}.zendesk.com',
      ZENDESK_OAUTH_CLIENT_ID: 'incident_desk',
      ZENDESK_OAUTH_CLIENT_SECRET: 's3cret',
      ZENDESK_OAUTH_REDIRECT_URI: 'https://connector.example.com/oauth/callback',
    });
    expect(config).toMatchObject({
      scope: 'tickets:read tickets:write users:read',
      accessTokenExpiresIn: 86_400,
      refreshTokenExpiresIn: 7_776_000,
    });
  });

  it('names what is wrong without echoing the secret', () => {
    const attempt = () =>
      zendeskOAuthConfigFromEnv({
        ZENDESK_BASE_URL_TEMPLATE: 'https://acme.zendesk.com',
        ZENDESK_OAUTH_CLIENT_ID: 'incident_desk',
        ZENDESK_OAUTH_CLIENT_SECRET: '',
        ZENDESK_OAUTH_REDIRECT_URI: 'http://connector.example.com/oauth/callback',
      });
    expect(attempt).toThrow(/ZENDESK_BASE_URL_TEMPLATE/);
    expect(attempt).toThrow(/ZENDESK_OAUTH_REDIRECT_URI/);
    expect(attempt).toThrow(/ZENDESK_OAUTH_CLIENT_SECRET: required/);
  });
});
