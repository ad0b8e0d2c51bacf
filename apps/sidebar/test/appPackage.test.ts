// @vitest-environment node
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appPackageProblems, pngSize } from '../scripts/appPackageChecks';
import { LOGOS, renderLogo } from '../scripts/renderLogos';

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

const manifest = {
  name: 'incident-desk',
  author: {
    name: 'incident-desk',
    email: 'support@incident-desk.example',
    url: 'https://incident-desk.example',
  },
  defaultLocale: 'en',
  frameworkVersion: '2.0',
  location: {
    support: {
      ticket_sidebar: {
        url: 'https://connector.example/sidebar/app/assets/iframe.html',
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
        location: { support: { ticket_sidebar: { url: 'http://connector.example/x.html' } } },
      }),
    );
    expect(appPackageProblems(dir, { marketplace: false })).toEqual([
      'manifest.json: author needs a name and an email',
      'manifest.json: support.ticket_sidebar must load over https (http://connector.example/x.html)',
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
