// No secret in the built sidebar bundle. The sidebar is built the way
// `npm run build -w @incident-desk/sidebar` builds it (vite build, same config), into a temporary
// folder so a build in progress elsewhere is never disturbed, with canary secrets in every
// environment variable the connector and the preview read. Every file of the output is searched for
// those canaries, the sandboxes' fixed secrets, and secret-looking patterns. The checked-in build
// folder apps/sidebar/dist, when present, is searched too.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY, OTHER_ORG_API_KEY } from '@incident-desk/incident-sandbox';
import { ZENDESK_TEST_SIGNING_SECRET } from '@incident-desk/zendesk-sandbox';
import { SANDBOX_ZENDESK_CLIENT } from '@incident-desk/connector/src/config/config';
import { findingsRecorder } from '../src/findings';

const sidebarDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../apps/sidebar');

const SECRET_PATTERNS: [string, RegExp][] = [
  ['private key', /-----BEGIN [A-Z ]*PRIVATE KEY-----/],
  ['AWS access key', /\bAKIA[0-9A-Z]{16}\b/],
  ['JWT', /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/],
  ['webhook signing secret', /\bwhsec_[A-Za-z0-9]{8,}/],
  ['Stripe-style key', /\b[sr]k_(live|test)_[A-Za-z0-9]{16,}/],
  ['Slack token', /\bxox[abprs]-[A-Za-z0-9-]{10,}/],
  ['GitHub token', /\bgh[pousr]_[A-Za-z0-9]{36}\b/],
  ['sealing key list', /\b[\w-]+:[A-Za-z0-9+/]{43}=/],
  [
    'assigned credential',
    /(?:api[_-]?key|client[_-]?secret|shared[_-]?secret|password|access[_-]?token|refresh[_-]?token)["']?\s*[:=]\s*["'][A-Za-z0-9+/_=.-]{12,}["']/i,
  ],
];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

function scan(dir: string, secrets: string[]) {
  const hits: string[] = [];
  const files = filesUnder(dir);
  for (const file of files) {
    const text = readFileSync(file).toString('latin1');
    const name = path.relative(dir, file);
    for (const secret of secrets)
      if (text.includes(secret)) hits.push(`${name}: a configured secret`);
    for (const [what, pattern] of SECRET_PATTERNS) {
      const match = pattern.exec(text);
      if (match) hits.push(`${name}: ${what} "${match[0].slice(0, 40)}"`);
    }
  }
  return { files: files.length, hits };
}

describe('the built sidebar bundle', () => {
  const findings = findingsRecorder('bundle');
  const canaries = {
    SECRETS_KEYS: `chaos-1:${randomBytes(32).toString('base64')}`,
    ZENDESK_CLIENT_SECRET: `canary-client-secret-${randomBytes(8).toString('hex')}`,
    PREVIEW_SHARED_SECRET: `canary-preview-secret-${randomBytes(8).toString('hex')}`,
    SIDEBAR_SHARED_SECRET: `canary-sidebar-secret-${randomBytes(8).toString('hex')}`,
    INCIDENT_API_KEY: `canary-incident-key-${randomBytes(8).toString('hex')}`,
    ZENDESK_SANDBOX_APP_SETTINGS: JSON.stringify({
      connector_url: 'http://localhost:8787',
      shared_secret: `canary-settings-secret-${randomBytes(8).toString('hex')}`,
    }),
  };
  const canarySecrets = [
    canaries.SECRETS_KEYS.split(':')[1]!,
    canaries.ZENDESK_CLIENT_SECRET,
    canaries.PREVIEW_SHARED_SECRET,
    canaries.SIDEBAR_SHARED_SECRET,
    canaries.INCIDENT_API_KEY,
    (JSON.parse(canaries.ZENDESK_SANDBOX_APP_SETTINGS) as { shared_secret: string }).shared_secret,
  ];
  const fixedSecrets = [
    // the sidebar's former shared secret: no longer anywhere, and never in the bundle
    'local-shared-secret',
    SANDBOX_ZENDESK_CLIENT.secret,
    DEMO_API_KEY,
    OTHER_ORG_API_KEY,
    ZENDESK_TEST_SIGNING_SECRET,
  ];
  let outDir: string;
  let build: ReturnType<typeof spawnSync>;

  beforeAll(() => {
    outDir = mkdtempSync(path.join(tmpdir(), 'incident-desk-sidebar-build-'));
    build = spawnSync(
      'npx',
      ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
      {
        cwd: sidebarDir,
        env: { ...process.env, ...canaries },
        encoding: 'utf8',
      },
    );
  }, 300_000);

  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('carries no configured secret, no canary from the build environment and nothing secret-looking', () => {
    expect(build.status, `vite build failed: ${String(build.stderr)}`).toBe(0);
    const result = scan(outDir, [...canarySecrets, ...fixedSecrets]);
    findings.record({
      property: 'No secret in the built sidebar bundle',
      backend: '-',
      test: 'carries no configured secret, no canary from the build environment and nothing secret-looking',
      ok: result.hits.length === 0 && result.files > 0,
      detail: `${result.files} files built with canaries in 6 variables; searched for them, the 5 fixed sandbox secrets and ${SECRET_PATTERNS.length} patterns: ${result.hits.length === 0 ? 'none found' : result.hits.join('; ')}`,
    });
    expect(result.files).toBeGreaterThan(2);
    expect(result.hits).toEqual([]);
  });

  it('the scan finds a planted secret and a planted token (so it can fail)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'incident-desk-scan-'));
    try {
      writeFileSync(
        path.join(dir, 'planted.js'),
        `const a="${canarySecrets[1]}";const t="eyJhbGciOiJIUzI1NiJ9.eyJzdWJkb21haW4iOiJkZW1vIn0.c2lnbmF0dXJlLXNpZ25hdHVyZQ";`,
      );
      expect(scan(dir, canarySecrets).hits).toHaveLength(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.runIf(existsSync(path.join(sidebarDir, 'dist')))(
    'and neither does apps/sidebar/dist as it is now',
    () => {
      const result = scan(path.join(sidebarDir, 'dist'), fixedSecrets);
      findings.record({
        property: 'No secret in the built sidebar bundle (apps/sidebar/dist)',
        backend: '-',
        test: 'and neither does apps/sidebar/dist as it is now',
        ok: result.hits.length === 0,
        detail: `${result.files} files: ${result.hits.length === 0 ? 'none found' : result.hits.join('; ')}`,
      });
      expect(result.hits).toEqual([]);
    },
  );
});
