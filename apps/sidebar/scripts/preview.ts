// npm run preview: serves the built app with `zcli apps:server` for a real Zendesk account (open a
// ticket with ?zcli_apps=true). The sidebar location is the connector's (signedUrls), so the
// manifest zcli serves points at PREVIEW_CONNECTOR_URL; the app has no settings to ask for, and
// zcli.apps.config.json says so. See docs/development.md ("Local preview inside a real Zendesk account").
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { packagedManifest } from './zafAppFolder';

const dist = fileURLToPath(new URL('../dist', import.meta.url));
const root = fileURLToPath(new URL('../../../manifest.json', import.meta.url));
const connectorUrl = process.env.PREVIEW_CONNECTOR_URL ?? 'http://localhost:8787';
writeFileSync(`${dist}/manifest.json`, packagedManifest(readFileSync(root, 'utf8'), connectorUrl));
writeFileSync(`${dist}/zcli.apps.config.json`, JSON.stringify({ parameters: {} }, null, 2));

const port = process.env.PREVIEW_PORT ?? '4567';
const zcli = spawn('zcli', ['apps:server', dist, '--port', port], { stdio: 'inherit' });
zcli.on('exit', (code) => process.exit(code ?? 0));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => zcli.kill(signal));
