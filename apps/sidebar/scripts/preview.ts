// npm run preview: serves the built app with `zcli apps:server` for a real Zendesk account (open a
// ticket with ?zcli_apps=true). zcli asks for every setting unless the app folder carries
// zcli.apps.config.json, so it is written here from the environment; the built folder is not
// committed, so neither is the secret.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist', import.meta.url));
const parameters = {
  connector_url: process.env.PREVIEW_CONNECTOR_URL ?? 'http://localhost:8787',
  shared_secret: process.env.PREVIEW_SHARED_SECRET ?? 'local-shared-secret',
};
writeFileSync(`${dist}/zcli.apps.config.json`, JSON.stringify({ parameters }, null, 2));

const port = process.env.PREVIEW_PORT ?? '4567';
const zcli = spawn('zcli', ['apps:server', dist, '--port', port], { stdio: 'inherit' });
zcli.on('exit', (code) => process.exit(code ?? 0));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => zcli.kill(signal));
