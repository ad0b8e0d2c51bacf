// Starts the local stack the way `npm start` does, one process per service from its entry point,
// on the e2e ports and a throw-away embedded database, and returns the teardown that stops it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  copyFileSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuTicks } from '../scripts/start/cpu-ticks';
import { StartFailed, waitUntilAnswering } from '../scripts/start/wait-until-answering';
import { stackPorts, stackUrls } from './tests/support/stack-config';

const e2eDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(e2eDir, '..');
const logDir = path.join(e2eDir, '.stack');

interface Service {
  name: string;
  dir: string;
  env: Record<string, string>;
  child?: ChildProcess;
  log: string;
}

function portTaken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * Waits while the service lives and makes progress (CPU time, output), however slow the machine:
 * gives up when it exits, or when it made none for three minutes (scripts/start's rule).
 */
async function waitFor(what: string, check: () => Promise<boolean> | boolean, service: Service) {
  const outputBytes = () => (existsSync(service.log) ? statSync(service.log).size : 0);
  try {
    await waitUntilAnswering(
      {
        name: what,
        url: service.log,
        answers: async () => await check(),
        exited: () =>
          service.child && service.child.exitCode !== null
            ? `exit ${service.child.exitCode}`
            : (service.child?.signalCode ?? null),
        progress: () => outputBytes() + (service.child?.pid ? cpuTicks(service.child.pid) : 0),
      },
      { report: (line) => console.log(`e2e stack: ${line}`), reportEveryMs: 10_000 },
    );
  } catch (error) {
    if (error instanceof StartFailed)
      throw new Error(`${error.message} See ${service.log}`, { cause: error });
    throw error;
  }
}

function start(service: Service): void {
  const out = createWriteStream(service.log);
  // Its own process group, so teardown stops the service and anything it started.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.join(root, service.dir),
    env: { ...process.env, ...service.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  service.child = child;
}

async function stop(service: Service): Promise<void> {
  const child = service.child;
  if (!child?.pid || child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(-child.pid, 'SIGTERM');
  const timer = setTimeout(() => {
    if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGKILL');
  }, 10_000);
  await exited;
  clearTimeout(timer);
}

function buildSidebarIfMissing(): void {
  if (existsSync(path.join(root, 'apps/sidebar/dist/manifest.json'))) return;
  const build = spawnSync('npm', ['run', 'build', '-w', '@incident-desk/sidebar'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('building the sidebar failed');
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  for (const [name, port] of Object.entries(stackPorts)) {
    if (await portTaken(port))
      throw new Error(
        `port ${port} of the ${name} is already in use; stop what uses it or set E2E_*_PORT`,
      );
  }
  buildSidebarIfMissing();
  mkdirSync(logDir, { recursive: true });
  const pgliteDir = mkdtempSync(path.join(tmpdir(), 'incident-desk-e2e-'));
  // The app as installed in the sandbox: its location is this stack's connector (signedUrls), which
  // serves the built sidebar itself. The Zendesk side needs the manifest, and the small logo the
  // workspace shows in the app's header.
  const appDir = mkdtempSync(path.join(tmpdir(), 'incident-desk-e2e-app-'));
  const manifest = JSON.parse(
    readFileSync(path.join(root, 'apps/sidebar/dist/manifest.json'), 'utf8'),
  ) as { location: { support: { ticket_sidebar: { url: string } } } };
  manifest.location.support.ticket_sidebar.url = `${stackUrls.connector}/sidebar/app/assets/iframe.html`;
  writeFileSync(path.join(appDir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  mkdirSync(path.join(appDir, 'assets'));
  copyFileSync(
    path.join(root, 'apps/sidebar/dist/assets/logo-small.png'),
    path.join(appDir, 'assets/logo-small.png'),
  );
  const common = {
    CONNECTOR_PORT: String(stackPorts.connector),
    INCIDENT_SANDBOX_PORT: String(stackPorts.incident),
    ZENDESK_SANDBOX_PORT: String(stackPorts.zendesk),
  };
  const services: Service[] = [
    {
      name: 'incident sandbox',
      dir: 'packages/incident-sandbox',
      env: { ...common, INCIDENT_SANDBOX_WEBHOOK_DELAY_MS: '20' },
      log: path.join(logDir, 'incident-sandbox.log'),
    },
    {
      name: 'zendesk sandbox',
      dir: 'packages/zendesk-sandbox',
      env: {
        ...common,
        ZENDESK_SANDBOX_SEARCH_LAG_MS: '0',
        ZENDESK_SANDBOX_APP_DIR: appDir,
        ZENDESK_SANDBOX_REDIRECT_URIS: `${stackUrls.connector}/oauth/callback`,
      },
      log: path.join(logDir, 'zendesk-sandbox.log'),
    },
    {
      name: 'connector',
      dir: 'apps/connector',
      env: {
        ...common,
        DEMO: 'true',
        CONNECTOR_PUBLIC_URL: stackUrls.connector,
        PGLITE_DIR: pgliteDir,
        // A throw-away key: the suite never touches the developer's .data/secret-keys.json.
        SECRETS_KEYS: `e2e:${randomBytes(32).toString('base64')}`,
        WORKER_POLL_INTERVAL_SECONDS: '0.5',
        // a setup that hangs is stopped and retried within a test's time (Zendesk-side latency)
        SETUP_JOB_TIMEOUT_SECONDS: '15',
        SETUP_RETRY_DELAY_SECONDS: '1',
      },
      log: path.join(logDir, 'connector.log'),
    },
  ];
  const teardown = async () => {
    await Promise.all(services.map(stop));
    rmSync(pgliteDir, { recursive: true, force: true });
    rmSync(appDir, { recursive: true, force: true });
  };
  try {
    for (const service of services) start(service);
    const [incident, zendesk, connector] = services as [Service, Service, Service];
    await waitFor(
      'incident sandbox',
      () => answers(`${stackUrls.incident}/_sandbox/ready`),
      incident,
    );
    await waitFor('zendesk sandbox', () => answers(`${stackUrls.zendesk}/_sandbox/ready`), zendesk);
    // The connector's demo connects account `demo` and runs setup after it listens.
    await waitFor(
      'connector demo set-up',
      () => {
        const log = readFileSync(connector.log, 'utf8');
        if (log.includes('demo set-up failed'))
          throw new Error(`connector demo set-up failed; see ${connector.log}`);
        return log.includes('Demo ready');
      },
      connector,
    );
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
