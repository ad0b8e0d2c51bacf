// @vitest-environment node
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  appPackageProblems,
  placeholderReason,
  pngSize,
  publisherSettingsProblems,
} from '../scripts/appPackageChecks';
import {
  fillListing,
  publisherFromEnv,
  standInPublisher,
  type Publisher,
} from '../scripts/listingPublisher';
import { LOGOS, renderLogo } from '../scripts/renderLogos';

const sidebarRoot = fileURLToPath(new URL('..', import.meta.url));

/** A PNG's signature and IHDR: all the checks read of a screenshot. */
function pngHeader(width: number, height: number): Buffer {
  const png = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(png, 0);
  png.writeUInt32BE(13, 8);
  png.write('IHDR', 12, 'latin1');
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  return png;
}

// A publisher that looks real (no reserved or local name): what a marketplace build needs.
const realPublisher: Publisher = {
  authorName: 'Brandwatch Security Ltd',
  authorEmail: 'apps@brandwatch-security.io',
  authorUrl: 'https://brandwatch-security.io',
  supportUrl: 'https://help.brandwatch-security.io/incident-desk',
  privacyUrl: 'https://brandwatch-security.io/privacy',
};
const realEnv = {
  APP_AUTHOR_NAME: realPublisher.authorName,
  APP_AUTHOR_EMAIL: realPublisher.authorEmail,
  APP_AUTHOR_URL: realPublisher.authorUrl,
  APP_SUPPORT_URL: realPublisher.supportUrl,
  APP_PRIVACY_URL: realPublisher.privacyUrl,
  CONNECTOR_PUBLIC_URL: 'https://connector.brandwatch-security.io',
};

const manifest = {
  name: 'incident-desk',
  private: false,
  author: {
    name: realPublisher.authorName,
    email: realPublisher.authorEmail,
    url: realPublisher.authorUrl,
  },
  defaultLocale: 'en',
  frameworkVersion: '2.0',
  location: {
    support: {
      ticket_sidebar: {
        url: 'https://connector.brandwatch-security.io/sidebar/app/assets/iframe.html',
        signedUrls: true,
      },
    },
  },
};
const translation = {
  app: {
    name: 'incident-desk',
    short_description: 'Follow takedowns from the ticket.',
    long_description: 'Links abuse-report tickets to the takedown service.',
    installation_instructions: 'Install, then connect the account.',
  },
};

let dir: string;
function write(path: string, content: string | Buffer): void {
  writeFileSync(join(dir, path), content);
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'app-package-'));
  mkdirSync(join(dir, 'assets'));
  mkdirSync(join(dir, 'translations'));
  write('manifest.json', JSON.stringify(manifest));
  write('translations/en.json', JSON.stringify(translation));
  for (const { name, size } of LOGOS) write(`assets/${name}.png`, await renderLogo(name, size));
  for (const index of [0, 1, 2]) write(`assets/screenshot-${index}.png`, pngHeader(1024, 768));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the app package checks', () => {
  it('pass a complete package, and the logos are drawn at the sizes Zendesk requires', () => {
    expect(appPackageProblems(dir, { marketplace: true })).toEqual([]);
    expect(pngSize(join(dir, 'assets/logo.png'))).toEqual({ width: 320, height: 320 });
    expect(pngSize(join(dir, 'assets/logo-small.png'))).toEqual({ width: 128, height: 128 });
  });

  it('refuse a location over http, one without signed URLs, and an author without email', () => {
    write(
      'manifest.json',
      JSON.stringify({
        ...manifest,
        author: { name: 'x' },
        location: { support: { ticket_sidebar: { url: 'http://connector.acme.io/x.html' } } },
      }),
    );
    expect(appPackageProblems(dir, { marketplace: false })).toEqual([
      'manifest.json: author needs a name and an email',
      'manifest.json: support.ticket_sidebar must load over https (http://connector.acme.io/x.html)',
      'manifest.json: support.ticket_sidebar needs signedUrls',
    ]);
  });

  it('refuse a locale without the marketplace texts, and a name with Zendesk in it', () => {
    write('translations/fr.json', JSON.stringify({ app: { name: 'incident-desk for Zendesk' } }));
    expect(appPackageProblems(dir, { marketplace: false })).toEqual([
      'translations/fr.json: app.short_description is missing',
      'translations/fr.json: app.long_description is missing',
      'translations/fr.json: app.installation_instructions is missing',
      "translations/fr.json: the app's name may not use Zendesk's trademark",
    ]);
  });

  it('refuse screenshots of the wrong size, and missing ones only for the marketplace', () => {
    write('assets/screenshot-1.png', pngHeader(1280, 1000));
    rmSync(join(dir, 'assets/screenshot-2.png'));
    expect(appPackageProblems(dir, { marketplace: true })).toEqual([
      'assets/screenshot-1.png is 1280x1000, not 1024x768',
      'assets/screenshot-2.png is missing',
    ]);
    expect(appPackageProblems(dir, { marketplace: false })).toEqual([]);
  });

  it('refuse a logo at the wrong size and a default locale without its translation', () => {
    write('assets/logo.png', pngHeader(300, 300));
    rmSync(join(dir, 'translations/en.json'));
    expect(appPackageProblems(dir, { marketplace: false })).toEqual([
      'translations/: no en.json for the default locale',
      'assets/logo.png is 300x300, not 320x320',
    ]);
  });
});

describe('the publisher of a marketplace listing', () => {
  it('is refused when it is a stand-in: the author, the location and every address in the texts, each named', () => {
    write(
      'manifest.json',
      JSON.stringify({
        ...manifest,
        author: {
          name: 'TODO company name',
          email: 'support@incident-desk.example',
          url: 'https://localhost:8443',
        },
        location: {
          support: {
            ticket_sidebar: {
              url: 'https://connector.incident-desk.example/sidebar/app/assets/iframe.html',
              signedUrls: true,
            },
          },
        },
      }),
    );
    write(
      'translations/en.json',
      JSON.stringify({
        app: {
          ...translation.app,
          long_description:
            'Support: https://example.com/help. Privacy policy: https://10.0.0.7/privacy',
          installation_instructions:
            'Open https://connector.incident-desk.example/install, or write to help@acme.test.',
        },
      }),
    );
    expect(appPackageProblems(dir, { marketplace: true })).toEqual([
      'manifest.json: author.name is a placeholder, unfinished text (TODO company name)',
      'manifest.json: author.email is a placeholder, a reserved example domain (support@incident-desk.example)',
      'manifest.json: author.url is a placeholder, a local name (https://localhost:8443)',
      'manifest.json: support.ticket_sidebar is a placeholder, a reserved example domain (https://connector.incident-desk.example/sidebar/app/assets/iframe.html)',
      'translations/en.json: app.long_description names a placeholder, a reserved example domain (https://example.com/help)',
      'translations/en.json: app.long_description names a placeholder, an IP address, not a published name (https://10.0.0.7/privacy)',
      'translations/en.json: app.installation_instructions names a placeholder, a reserved example domain (https://connector.incident-desk.example/install)',
      'translations/en.json: app.installation_instructions names a placeholder, a reserved example domain (help@acme.test)',
    ]);
    // a private upload and CI's build (never submitted) may keep the stand-ins
    expect(appPackageProblems(dir, { marketplace: false })).toEqual([]);
    expect(appPackageProblems(dir, { marketplace: true, allowPlaceholders: true })).toEqual([]);
  });

  it('refuses a manifest marked private for the Marketplace, not for a private upload', () => {
    write('manifest.json', JSON.stringify({ ...manifest, private: true }));
    expect(appPackageProblems(dir, { marketplace: true })).toEqual([
      'manifest.json: private must be false for a Marketplace listing',
    ]);
    expect(appPackageProblems(dir, { marketplace: false })).toEqual([]);
  });

  it('refuses texts that still hold a placeholder, and a name over 40 characters', () => {
    write(
      'translations/en.json',
      JSON.stringify({
        app: {
          ...translation.app,
          name: 'incident-desk takedowns and phishing reports',
          long_description: 'Help: {{support_url}}',
        },
      }),
    );
    expect(appPackageProblems(dir, { marketplace: false })).toEqual([
      "translations/en.json: the app's name is over 40 characters",
      'translations/en.json: app.long_description still holds {{support_url}}',
    ]);
  });

  it('names each setting a marketplace build lacks or holds as a placeholder', () => {
    expect(publisherSettingsProblems({}, { requireReal: true })).toEqual([
      'APP_AUTHOR_NAME is not set: the publisher, a person or company (manifest author.name)',
      'APP_AUTHOR_EMAIL is not set: where customers send support requests (manifest author.email)',
      'APP_AUTHOR_URL is not set: a page about the publisher or the app (manifest author.url)',
      'APP_SUPPORT_URL is not set: the support page the listing links to',
      'APP_PRIVACY_URL is not set: the privacy policy the listing links to',
    ]);
    expect(
      publisherSettingsProblems(
        {
          APP_AUTHOR_NAME: 'Your Company',
          APP_AUTHOR_EMAIL: 'support@incident-desk.example',
          APP_AUTHOR_URL: 'https://www.example.org',
          APP_SUPPORT_URL: 'https://support.acme.invalid/',
          APP_PRIVACY_URL: 'https://127.0.0.1/privacy',
          CONNECTOR_PUBLIC_URL: 'https://connector.incident-desk.example',
        },
        { requireReal: true },
      ),
    ).toEqual([
      'APP_AUTHOR_NAME is a placeholder, unfinished text (Your Company): the publisher, a person or company (manifest author.name)',
      'APP_AUTHOR_EMAIL is a placeholder, a reserved example domain (support@incident-desk.example): where customers send support requests (manifest author.email)',
      'APP_AUTHOR_URL is a placeholder, a reserved example domain (https://www.example.org): a page about the publisher or the app (manifest author.url)',
      'APP_SUPPORT_URL is a placeholder, a reserved example domain (https://support.acme.invalid/): the support page the listing links to',
      'APP_PRIVACY_URL is a placeholder, an IP address, not a published name (https://127.0.0.1/privacy): the privacy policy the listing links to',
      'CONNECTOR_PUBLIC_URL is a placeholder, a reserved example domain (https://connector.incident-desk.example): the connector Zendesk loads the sidebar from',
    ]);
    expect(publisherSettingsProblems(realEnv, { requireReal: true })).toEqual([]);
  });

  it('lets a private or CI build keep the stand-ins, but never a malformed setting', () => {
    expect(publisherSettingsProblems({}, { requireReal: false })).toEqual([]);
    expect(
      publisherSettingsProblems(
        { APP_AUTHOR_EMAIL: 'support@incident-desk.example', APP_SUPPORT_URL: 'https://x.test/' },
        { requireReal: false },
      ),
    ).toEqual([]);
    expect(
      publisherSettingsProblems(
        { APP_AUTHOR_EMAIL: 'support at acme', APP_PRIVACY_URL: 'http://acme.io/privacy' },
        { requireReal: false },
      ),
    ).toEqual([
      'APP_AUTHOR_EMAIL is not an email address (support at acme): where customers send support requests (manifest author.email)',
      'APP_PRIVACY_URL must be an https URL (http://acme.io/privacy): the privacy policy the listing links to',
    ]);
  });

  it('tells stand-ins from real values', () => {
    for (const value of [
      'https://example.com',
      'https://docs.example.net/x',
      'https://a.b.example',
    ])
      expect(placeholderReason(value, 'url'), value).toBe('a reserved example domain');
    for (const value of ['https://localhost', 'https://intranet', 'https://app.local'])
      expect(placeholderReason(value, 'url'), value).toBe('a local name');
    expect(placeholderReason('https://[::1]/', 'url')).toBe('an IP address, not a published name');
    expect(placeholderReason('TBD', 'name')).toBe('unfinished text');
    expect(placeholderReason('  ', 'name')).toBe('empty');
    for (const value of ['https://examples.io', 'https://example-corp.com', 'https://testing.dev'])
      expect(placeholderReason(value, 'url'), value).toBeNull();
    expect(placeholderReason('ops@brandwatch-security.io', 'email')).toBeNull();
    expect(placeholderReason('Todoist Ltd', 'name')).toBeNull();
  });
});

describe('the shipped listing', () => {
  /** The package's folder as packageApp stages it: the root manifest and every locale's texts. */
  function stageShippedApp(): void {
    cpSync(join(sidebarRoot, 'src/translations/marketplace'), join(dir, 'translations'), {
      recursive: true,
    });
    const root = JSON.parse(readFileSync(join(sidebarRoot, '../../manifest.json'), 'utf8'));
    root.location.support.ticket_sidebar.url =
      'https://connector.brandwatch-security.io/sidebar/app/assets/iframe.html';
    write('manifest.json', JSON.stringify(root));
  }

  it('passes with a real publisher, whose addresses land in the author block and every locale', () => {
    stageShippedApp();
    fillListing(dir, realPublisher, 'https://connector.brandwatch-security.io/');
    expect(appPackageProblems(dir, { marketplace: true })).toEqual([]);
    const staged = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    expect(staged.author).toEqual({
      name: 'Brandwatch Security Ltd',
      email: 'apps@brandwatch-security.io',
      url: 'https://brandwatch-security.io',
    });
    for (const locale of ['en', 'fr']) {
      const { app } = JSON.parse(readFileSync(join(dir, `translations/${locale}.json`), 'utf8'));
      expect(app.long_description, locale).toContain(realPublisher.supportUrl);
      expect(app.long_description, locale).toContain(realPublisher.privacyUrl);
      expect(app.installation_instructions, locale).toContain(
        'https://connector.brandwatch-security.io/install',
      );
      expect(app.installation_instructions, locale).toContain(
        'https://connector.brandwatch-security.io/admin/',
      );
      // the install steps, in order: marketplace, OAuth, admin page, API key, setup, a ticket
      expect(app.installation_instructions, locale).toMatch(
        /Marketplace[\s\S]*OAuth[\s\S]*\/admin\/[\s\S]*API[\s\S]*Run setup[\s\S]*ticket/,
      );
      expect(app.long_description, locale).toContain('Incident Reporting and Takedown Service');
    }
  });

  it('is refused with the repository stand-ins, which a private build keeps', () => {
    stageShippedApp();
    const root = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    fillListing(
      dir,
      publisherFromEnv({}, standInPublisher(root.author)),
      'https://connector.brandwatch-security.io',
    );
    const problems = appPackageProblems(dir, { marketplace: true });
    expect(problems).toContain(
      'manifest.json: author.email is a placeholder, a reserved example domain (support@incident-desk.example)',
    );
    expect(problems).toContain(
      'translations/fr.json: app.long_description names a placeholder, a reserved example domain (https://incident-desk.example/privacy)',
    );
    expect(appPackageProblems(dir, { marketplace: false })).toEqual([]);
  });
});

describe('npm run package', () => {
  /** The package command with only the given environment (no build starts when it refuses). */
  function packageCommand(args: string[], env: Record<string, string>) {
    const { PATH, HOME } = process.env;
    return spawnSync(
      process.execPath,
      ['--import', 'tsx', join(sidebarRoot, 'scripts/packageApp.ts'), ...args],
      { cwd: sidebarRoot, encoding: 'utf8', env: { PATH: PATH ?? '', HOME: HOME ?? '', ...env } },
    );
  }

  it('refuses a marketplace build without the publisher, naming every missing setting', () => {
    const run = packageCommand([], {
      CONNECTOR_PUBLIC_URL: 'https://connector.incident-desk.example',
    });
    expect(run.status).toBe(1);
    for (const name of [
      'APP_AUTHOR_NAME',
      'APP_AUTHOR_EMAIL',
      'APP_AUTHOR_URL',
      'APP_SUPPORT_URL',
      'APP_PRIVACY_URL',
      'CONNECTOR_PUBLIC_URL is a placeholder',
    ])
      expect(run.stderr).toContain(name);
  });

  it('refuses --ci-placeholders outside CI', () => {
    const run = packageCommand(['--ci-placeholders'], {
      CONNECTOR_PUBLIC_URL: 'https://connector.incident-desk.example',
      CI: 'false',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('--ci-placeholders is for CI only');
  });
});
