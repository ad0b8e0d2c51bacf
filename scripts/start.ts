// Starts the whole local stack on the embedded database: both sandboxes, the connector and the
// sidebar build the agent workspace serves. Each service runs as its own process, as it would in
// production; Ctrl-C stops them all and waits for each to exit.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Service {
  name: string;
  workspace: string;
  portVariable: string;
  defaultPort: number;
  /** What a person opens first, relative to the service's address. */
  landing: string;
}

const services: Service[] = [
  {
    name: 'incident sandbox',
    workspace: 'packages/incident-sandbox',
    portVariable: 'INCIDENT_SANDBOX_PORT',
    defaultPort: 8788,
    landing: '/_sandbox/console/',
  },
  {
    name: 'zendesk sandbox',
    workspace: 'packages/zendesk-sandbox',
    portVariable: 'ZENDESK_SANDBOX_PORT',
    defaultPort: 8789,
    landing: '/agent/tickets',
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
    env: { ...process.env, [service.portVariable]: String(portOf(service)) },
    stdio: ['ignore', 'pipe', 'pipe'],
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

async function stop(exitCode: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  const exits = [...children.values()].map(
    (child) => new Promise<void>((resolve) => child.once('exit', () => resolve())),
  );
  for (const child of children.values()) child.kill('SIGTERM');
  const forceKill = setTimeout(() => {
    for (const child of children.values()) child.kill('SIGKILL');
  }, 10_000);
  await Promise.all(exits);
  clearTimeout(forceKill);
  process.exit(exitCode);
}

process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

async function main(): Promise<void> {
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
  console.log('\nPress Ctrl-C to stop.');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  void stop(1);
});
