// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { packagedManifest } from '../scripts/zafAppFolder';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('vite build', () => {
  it('writes a ZAF app folder with relative asset paths, translations and a JS bundle under 152 KB gzip', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'sidebar-dist-'));
    // vitest sets NODE_ENV=test, which would bundle React's development build: measure what ships.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({
        root,
        configFile: join(root, 'vite.config.ts'),
        logLevel: 'silent',
        build: { outDir, emptyOutDir: true },
      });
      process.env.NODE_ENV = nodeEnv;
      const manifest = JSON.parse(readFileSync(join(outDir, 'manifest.json'), 'utf8'));
      const rootManifest = JSON.parse(readFileSync(join(root, '../../manifest.json'), 'utf8'));
      // the location is the connector's (CONNECTOR_PUBLIC_URL at build time), signed by Zendesk
      expect({ ...manifest, location: undefined }).toEqual({
        ...rootManifest,
        location: undefined,
      });
      expect(manifest.location.support.ticket_sidebar).toMatchObject({
        url: expect.stringMatching(/^https?:\/\/[^/]+\/sidebar\/app\/assets\/iframe\.html$/),
        signedUrls: true,
      });
      expect(manifest.parameters).toEqual([]);
      expect(manifest.domainWhitelist).toBeUndefined();

      const html = readFileSync(join(outDir, 'assets/iframe.html'), 'utf8');
      const scripts = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
      expect(scripts.length).toBeGreaterThan(0);
      for (const src of scripts) expect(src).not.toMatch(/^\/|^https?:/);

      const assets = readdirSync(join(outDir, 'assets'));
      expect(assets).toEqual(expect.arrayContaining(['logo.png', 'logo-small.png']));
      const js = assets.filter((f) => f.endsWith('.js'));
      expect(js.some((f) => /^iframe-[\w-]+\.js$/.test(f))).toBe(true);
      const gzipBytes = js.reduce(
        (sum, f) => sum + gzipSync(readFileSync(join(outDir, 'assets', f))).length,
        0,
      );
      // every JS chunk, locales and the lazy dialog included (under 152 KB gzip)
      expect(gzipBytes).toBeLessThan(152 * 1024);

      // The entry only starts the handshake and the first requests; the UI chunk and the chunk
      // of the answers' schemas (zod/mini) are preloaded alongside it, and the dialogs' chunk is
      // left to load after the first view.
      const entry =
        /<script type="module" crossorigin src="\.\.\/assets\/(iframe-[\w-]+\.js)"/.exec(html)?.[1];
      const preloaded = [
        ...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)"/g),
      ].map((m) => m[1]!);
      expect(entry).toBeDefined();
      const preloadedChunks = preloaded.map((href) => href.replace(/^\.\.\/assets\//, ''));
      expect(preloadedChunks).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^main-[\w-]+\.js$/),
          expect.stringMatching(/^answers-[\w-]+\.js$/),
        ]),
      );
      expect(new Set(preloadedChunks).size).toBe(preloadedChunks.length);
      const entryCode = readFileSync(join(outDir, 'assets', entry!), 'utf8');
      expect(gzipSync(entryCode).length).toBeLessThan(20 * 1024);
      expect(entryCode).not.toContain('react-dom');
      expect(entryCode).not.toContain('zod');
      expect(js.some((f) => /^ConfirmDialog-[\w-]+\.js$/.test(f))).toBe(true);
      expect(html).not.toContain('ConfirmDialog');

      const bundle = js.map((f) => readFileSync(join(outDir, 'assets', f), 'utf8')).join('\n');
      expect(bundle).toContain('iframe.handshake'); // the SDK is bundled, not loaded from a CDN

      const en = JSON.parse(readFileSync(join(outDir, 'translations/en.json'), 'utf8'));
      expect(en.app.name).toBe('incident-desk');
      expect(en.app.parameters).toBeUndefined();
      expect(en.sidebar).toBeUndefined();
      expect(readdirSync(join(outDir, 'translations')).sort()).toEqual(['en.json', 'fr.json']);
    } finally {
      process.env.NODE_ENV = nodeEnv;
      rmSync(outDir, { recursive: true, force: true });
    }
  });

  it('points the packaged location at the connector’s public URL, https only', () => {
    const root = readFileSync(
      fileURLToPath(new URL('../../../manifest.json', import.meta.url)),
      'utf8',
    );
    const packaged = JSON.parse(packagedManifest(root, 'https://connector.example.com/'));
    expect(packaged.location.support.ticket_sidebar).toEqual({
      url: 'https://connector.example.com/sidebar/app/assets/iframe.html',
      flexible: true,
      signedUrls: true,
    });
    expect(() => packagedManifest(root, 'http://connector.example.com')).toThrow(/https/);
    expect(packagedManifest(root, undefined)).toBe(root);
  });
});
