// Starts the whole local stack on the embedded database: both sandboxes, the connector and the
// sidebar build the agent workspace serves. Each service runs as its own process from its build
// (dist/main.js, the code a release runs), as it would in production, and is waited for as long as
// it makes progress (start/wait-until-answering.ts). The demo's data is kept in .data/ from one
// start to the next (the connector's database and each sandbox's state), whole or not at all
// (scripts/demo-data/). Ctrl-C stops the connector first, so the jobs it finishes still reach the
// sandboxes, then the sandboxes.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoDataPaths } from './demo-data/demo-data-paths';
import { prepareDemoData } from './demo-data/prepare-demo-data';
import { cpuTicks } from './start/cpu-ticks';
import { waitUntilAnswering } from './start/wait-until-answering';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataPaths = demoDataPaths(root, process.env);

interface Service {
  name: string;
  workspace: string;
  portVariable: string;
  defaultPort: number;
  /** What a person opens first, relative to the service's address. */
  landing: string;
  /** Answers 200 once the service is ready, relative to its address. */
  readiness: string;
  /** The folder it runs in: its workspace, or the repository (what relative paths are read from). */
  runsIn: 'workspace' | 'root';
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
    readiness: '/_sandbox/ready',
    runsIn: 'workspace',
    stateFile: { variable: 'INCIDENT_SANDBOX_DATA_FILE', file: dataPaths.incidentFile },
  },
  {
    name: 'zendesk sandbox',
    workspace: 'packages/zendesk-sandbox',
    portVariable: 'ZENDESK_SANDBOX_PORT',
    defaultPort: 8789,
    landing: '/agent/tickets',
    readiness: '/_sandbox/ready',
    runsIn: 'workspace',
    stateFile: { variable: 'ZENDESK_SANDBOX_DATA_FILE', file: dataPaths.zendeskFile },
  },
  {
    name: 'connector',
    workspace: 'apps/connector',
    portVariable: 'CONNECTOR_PORT',
    defaultPort: 8787,
    landing: '/',
    // its migrations applied, its queue running; run from the repository, so that .data/ is the
    // repository's, as when it runs from its sources
    readiness: '/readyz',
    runsIn: 'root',
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

/** `npm run build` in a workspace; its output shown only when it fails. */
function build(workspace: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', 'build', '--silent'], {
      cwd: path.join(root, workspace),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    for (const stream of [child.stdout, child.stderr])
      stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => {
      if (code === 0) return resolve();
      process.stderr.write(output);
      reject(new Error(`the build of ${workspace} failed (exit ${code}); its output is above`));
    });
  });
}

/** Bytes each service printed: with its CPU time, how start-up sees it making progress. */
const printed = new Map<string, number>();
const exits = new Map<string, string>();

function waitForService(service: Service): Promise<void> {
  const url = `http://127.0.0.1:${portOf(service)}${service.readiness}`;
  const child = children.get(service.name);
  return waitUntilAnswering({
    name: `the ${service.name}`,
    url,
    answers: async () => {
      try {
        return (await fetch(url, { signal: AbortSignal.timeout(10_000) })).ok;
      } catch {
        return false;
      }
    },
    exited: () => exits.get(service.name) ?? null,
    progress: () => (printed.get(service.name) ?? 0) + (child?.pid ? cpuTicks(child.pid) : 0),
  });
}

function startService(service: Service): void {
  const workspace = path.join(root, service.workspace);
  const child = spawn(process.execPath, [path.join(workspace, 'dist/main.js')], {
    cwd: service.runsIn === 'root' ? root : workspace,
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
  for (const stream of [child.stdout!, child.stderr!])
    stream.on('data', (chunk: string | Buffer) =>
      printed.set(service.name, (printed.get(service.name) ?? 0) + chunk.length),
    );
  child.on('exit', (code, signal) => {
    exits.set(service.name, signal ?? `exit ${code}`);
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
  // The sidebar's location is the connector's page (signedUrls): its build writes that URL.
  process.env.CONNECTOR_PUBLIC_URL ??= `http://localhost:${process.env.CONNECTOR_PORT ?? '8787'}`;
  console.log('Building the front ends, then the services…');
  // the front ends first: the connector and the Zendesk sandbox carry them in their builds
  await Promise.all(
    ['apps/sidebar', 'apps/admin']
      .filter((workspace) => existsSync(path.join(root, workspace, 'vite.config.ts')))
      .map((workspace) => build(workspace)),
  );
  await Promise.all(present.map((service) => build(service.workspace)));
  for (const service of present) startService(service);
  await Promise.all(present.map((service) => waitForService(service)));
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
