import { describe, expect, it } from 'vitest';
import { parseMainConfig } from '../src/main-config';

describe('main configuration', () => {
  it('defaults to port 8789 with localhost URLs and the demo redirect URIs', () => {
    const config = parseMainConfig({ ZENDESK_SANDBOX_APP_DIR: '/nonexistent' });
    expect(config).toMatchObject({
      port: 8789,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:8789',
      searchLagMs: 5_000,
    });
    expect(config.redirectUris).toEqual([
      'http://localhost:8787/oauth/callback',
      'http://127.0.0.1:8787/oauth/callback',
    ]);
    expect(config.workspace.app).toBeUndefined();
  });

  it('uses the bound address for port 0 and reads the app source', () => {
    const config = parseMainConfig({
      ZENDESK_SANDBOX_PORT: '0',
      ZENDESK_SANDBOX_ZCLI_URL: 'http://localhost:4567',
    });
    expect(config.publicUrl).toBeUndefined();
    expect(config.workspace.app).toEqual({ zcliUrl: 'http://localhost:4567' });
  });

  it("reads the manifest's secure settings for every app source (the sidebar has none: no secret to keep)", () => {
    const fromZcli = parseMainConfig({ ZENDESK_SANDBOX_ZCLI_URL: 'http://localhost:4567' });
    expect(fromZcli.workspace.installation?.secureSettingNames).toEqual([]);
    const fromFolder = parseMainConfig({ ZENDESK_SANDBOX_APP_SETTINGS: '{"region":"eu"}' });
    expect(fromFolder.workspace.installation?.secureSettingNames).toEqual([]);
    expect(fromFolder.workspace.installation?.settings).toEqual({ region: 'eu' });
    expect(parseMainConfig({}).workspace.installation?.settings).toEqual({});
  });

  it('fails fast on bad values, naming the variable', () => {
    expect(() => parseMainConfig({ ZENDESK_SANDBOX_PORT: 'abc' })).toThrow(/ZENDESK_SANDBOX_PORT/);
    expect(() => parseMainConfig({ ZENDESK_SANDBOX_REDIRECT_URIS: 'not a url' })).toThrow(
      /ZENDESK_SANDBOX_REDIRECT_URIS/,
    );
    expect(() => parseMainConfig({ ZENDESK_SANDBOX_APP_SETTINGS: '[1]' })).toThrow(
      /ZENDESK_SANDBOX_APP_SETTINGS/,
    );
  });
});
