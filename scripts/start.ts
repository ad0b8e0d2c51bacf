// Starts the whole local stack on the embedded database: both sandboxes, the connector and the
// sidebar build the agent workspace serves. Each service runs as its own process, as it would in
// production. The demo's data is kept in .data/ from one start to the next (the connector's
// database and each sandbox's state), whole or not at all (scripts/demo-data/). Ctrl-C stops the
// connector first, so the jobs it finishes still reach the sandboxes, then the sandboxes.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoDataPaths } from './demo-data/demo-data-paths';
import { prepareDemoData } from './demo-data/prepare-demo-data';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataPaths = demoDataPaths(root, process.env);

interface Service {
  name: string;
  workspace: string;
  portVariable: string;
  defaultPort: number;
  /** What a person opens first, relative to the service's address. */
  landing: string;
  /** Where it keeps its state, as a variable of its own. */
  stateFile?: { variable: string; file: string };
}

const services: Service[] = [
  {
    name: 'incident sandbox',
    workspace: 'packages/incident-sandbox',
    portVariable: 'INCIDENT_SANDBOX_PORT',
    defaultPort: 8788,
    landing: '/_sandbox/console/',
    stateFile: { variable: 'INCIDENT_SANDBOX_DATA_FILE', file: dataPaths.incidentFile },
  },
  {
    name: 'zendesk sandbox',
    workspace: 'packages/zendesk-sandbox',
    portVariable: 'ZENDESK_SANDBOX_PORT',
    defaultPort: 8789,
    landing: '/agent/tickets',
    stateFile: { variable: 'ZENDESK_SANDBOX_DATA_FILE', file: dataPaths.zendeskFile },
  },
  {
    name: 'connector',
    workspace: 'apps/connector',
    portVariable: 'CONNECTOR_PORT',
    defaultPort: 8787,
    landing: '/',
  },
];

const present = services.filter((s) => existsSync(path.join(root, s.workspace, 'src/main.ts')));
const children = new Map<string, ChildProcess>();
let stopping = false;

function portOf(service: Service): number {
  return Number(process.env[service.portVariable] ?? service.defaultPort);
}

function prefixLines(name: string, stream: NodeJS.ReadableStream, out: NodeJS.WriteStream): void {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) out.write(`[${name}] ${line}\n`);
  });
}

function run(command: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: 'inherit' });
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited ${code}`)),
    );
  });
}

async function waitForPort(service: Service, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const url = `http://127.0.0.1:${portOf(service)}/`;
  while (Date.now() < deadline) {
    if (!children.has(service.name)) throw new Error(`${service.name} exited during start-up`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(1_000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`${service.name} did not answer on ${url} within ${timeoutMs / 1000} s`);
}

function startService(service: Service): void {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.join(root, service.workspace),
    env: {
      // a person reads this terminal: lines as text, and only what needs attention
      ...(service.name === 'connector' ? { LOG_FORMAT: 'text', LOG_LEVEL: 'warn' } : {}),
      ...process.env,
      [service.portVariable]: String(portOf(service)),
      ...(service.stateFile ? { [service.stateFile.variable]: service.stateFile.file } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // its own process group: Ctrl-C reaches this script only, which stops the services in order
    detached: true,
  });
  children.set(service.name, child);
  prefixLines(service.name, child.stdout!, process.stdout);
  prefixLines(service.name, child.stderr!, process.stderr);
  child.on('exit', (code, signal) => {
    children.delete(service.name);
    if (!stopping) {
      console.error(`${service.name} stopped unexpectedly (${signal ?? `exit ${code}`})`);
      void stop(1);
    }
  });
}

/** Sends SIGTERM and waits for the exit; SIGKILL after `graceMs`. */
function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const forceKill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(forceKill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

async function stop(exitCode: number): Promise<void> {
  if (stopping) {
    // a second Ctrl-C: every service is told again (the connector then exits without waiting)
    for (const child of children.values()) child.kill('SIGINT');
    return;
  }
  stopping = true;
  // The connector finishes or hands back its jobs (SHUTDOWN_TIMEOUT_MS, 30 s by default) while the
  // sandboxes still answer; then each sandbox writes its state and exits.
  const connector = children.get('connector');
  if (connector) await stopChild(connector, 40_000);
  await Promise.all([...children.values()].map((child) => stopChild(child, 10_000)));
  process.exit(exitCode);
}

process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
process.on('SIGHUP', () => void stop(0));
// The services have their own process groups: should this script end any other way, they go too.
process.on('exit', () => {
  for (const child of children.values()) child.kill('SIGTERM');
});

async function main(): Promise<void> {
  const data = prepareDemoData(root, dataPaths);
  for (const notice of data.notices) console.log(notice);
  if (existsSync(path.join(root, 'apps/sidebar/vite.config.ts'))) {
    // The sidebar's location is the connector's page (signedUrls): the build writes its URL.
    process.env.CONNECTOR_PUBLIC_URL ??= `http://localhost:${process.env.CONNECTOR_PORT ?? '8787'}`;
    console.log('Building the sidebar app…');
    await run('npm', ['run', 'build', '--silent', '--workspace', '@incident-desk/sidebar'], root);
  }
  if (existsSync(path.join(root, 'apps/admin/vite.config.ts'))) {
    console.log('Building the admin page…');
    await run('npm', ['run', 'build', '--silent', '--workspace', '@incident-desk/admin'], root);
  }
  for (const service of present) startService(service);
  await Promise.all(present.map((service) => waitForPort(service)));
  console.log('\nincident-desk is running:');
  for (const service of present) {
    console.log(
      `  ${service.name.padEnd(18)} http://localhost:${portOf(service)}${service.landing}`,
    );
  }
  console.log(`\n${data.summary}`);
  console.log('Press Ctrl-C to stop.');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  void stop(1);
});
