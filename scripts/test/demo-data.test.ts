// What `npm start` does with the last run's data, and `npm run reset`: on a folder of its own,
// with state files the sandboxes themselves wrote.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIncidentSandbox } from '@incident-desk/incident-sandbox';
import { createZendeskSandbox, seedDemo } from '@incident-desk/zendesk-sandbox';
import { DemoRunningError } from '../demo-data/demo-data-locks';
import { demoDataPaths, type TDemoDataPaths } from '../demo-data/demo-data-paths';
import { prepareDemoData } from '../demo-data/prepare-demo-data';
import { resetDemoData } from '../demo-data/reset-demo-data';

let root: string;
let paths: TDemoDataPaths;
let pgliteDir: string;
const NOW = new Date('2031-01-02T03:04:05.678Z');

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'demo-data-'));
  paths = demoDataPaths(root, {});
  pgliteDir = path.join(root, '.data', 'pglite');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function saveIncidentSandbox(): Promise<number> {
  const sandbox = createIncidentSandbox({ dataFile: paths.incidentFile, seedHistory: false });
  const incidents = sandbox.store.state.incidents.length;
  await sandbox.close();
  return incidents;
}

async function saveZendeskSandbox(): Promise<void> {
  const sandbox = createZendeskSandbox({ stateFile: paths.zendeskFile });
  seedDemo(sandbox);
  await sandbox.close();
}

function saveConnectorDatabase(): void {
  mkdirSync(pgliteDir, { recursive: true });
  writeFileSync(path.join(pgliteDir, 'PG_VERSION'), '17\n');
}

describe('npm start with the last run', () => {
  it('says a first run is a new demo', () => {
    const prepared = prepareDemoData(root, paths, NOW);
    expect(prepared.plan).toEqual({ kind: 'fresh' });
    expect(prepared.notices).toEqual([]);
    expect(prepared.summary).toBe(
      'A new demo: kept for the next npm start; `npm run reset` starts fresh.',
    );
  });

  it('keeps every part when all were kept, and says what', async () => {
    const incidents = await saveIncidentSandbox();
    await saveZendeskSandbox();
    saveConnectorDatabase();
    const prepared = prepareDemoData(root, paths, NOW);
    expect(prepared.plan).toEqual({ kind: 'keep' });
    expect(prepared.notices).toEqual([]);
    expect(prepared.summary).toBe(
      `Kept from the last run: 3 tickets, ${incidents} incidents and the connector's database (.data/pglite). \`npm run reset\` starts fresh.`,
    );
    expect(existsSync(paths.incidentFile)).toBe(true);
    expect(existsSync(paths.zendeskFile)).toBe(true);
    expect(existsSync(path.join(pgliteDir, 'PG_VERSION'))).toBe(true);
    // the locks taken to look are given back: the services can start
    expect(readdirSync(path.join(root, '.data')).filter((f) => f.endsWith('.lock'))).toEqual([]);
  });

  it('sets an unusable state aside and resets every other part, saying why', async () => {
    await saveIncidentSandbox();
    saveConnectorDatabase();
    writeFileSync(paths.zendeskFile, '{"format":"zendesk-sandbox-state"');
    const prepared = prepareDemoData(root, paths, NOW);
    expect(prepared.plan).toEqual({
      kind: 'reset',
      cause: { part: 'zendesk', missing: false },
      setAside: ['zendesk'],
      remove: ['incident', 'connector'],
    });
    const aside = `${paths.zendeskFile}.unusable-2031-01-02T03-04-05-678Z`;
    expect(readFileSync(aside, 'utf8')).toBe('{"format":"zendesk-sandbox-state"');
    expect(existsSync(paths.zendeskFile)).toBe(false);
    expect(existsSync(paths.incidentFile)).toBe(false);
    expect(existsSync(pgliteDir)).toBe(false);
    expect(prepared.notices).toEqual([
      expect.stringMatching(
        /^The Zendesk sandbox's state \(\.data\/sandbox\/zendesk\.json\) cannot be used \(not JSON \(.+\)\): set aside as \.data\/sandbox\/zendesk\.json\.unusable-2031-01-02T03-04-05-678Z\.$/,
      ),
      "Starting the demo fresh: the Zendesk sandbox's state (.data/sandbox/zendesk.json) could not be used, so the incident sandbox's state (.data/sandbox/incident.json) and the connector's database (.data/pglite) were reset too (else ticket, event and incident ids would repeat what the connector stored).",
    ]);
    expect(prepared.summary).toBe(
      'Started fresh (see above), kept from now on; `npm run reset` starts fresh.',
    );
  });

  it("resets the connector's database when the sandboxes kept nothing (a run from before they kept state)", () => {
    saveConnectorDatabase();
    const prepared = prepareDemoData(root, paths, NOW);
    expect(prepared.plan).toMatchObject({
      kind: 'reset',
      cause: { part: 'incident', missing: true },
      remove: ['connector'],
    });
    expect(existsSync(pgliteDir)).toBe(false);
    expect(prepared.notices).toEqual([
      "Starting the demo fresh: the incident sandbox's state (.data/sandbox/incident.json) is missing, so the connector's database (.data/pglite) was reset too (else ticket, event and incident ids would repeat what the connector stored).",
    ]);
  });

  it("resets the sandboxes when the connector's database is gone", async () => {
    await saveIncidentSandbox();
    await saveZendeskSandbox();
    const prepared = prepareDemoData(root, paths, NOW);
    expect(prepared.plan).toMatchObject({
      kind: 'reset',
      cause: { part: 'connector', missing: true },
      remove: ['incident', 'zendesk'],
    });
    expect(existsSync(paths.incidentFile)).toBe(false);
    expect(existsSync(paths.zendeskFile)).toBe(false);
  });

  it("makes the connector's database again when a start that did not finish left it half-made, and says so", async () => {
    await saveIncidentSandbox();
    await saveZendeskSandbox();
    // killed while its cluster was being made: the making, never the folder itself
    mkdirSync(`${pgliteDir}.making`, { recursive: true });
    writeFileSync(path.join(`${pgliteDir}.making`, 'PG_VERSION'), '17\n');
    const prepared = prepareDemoData(root, paths, NOW);
    expect(prepared.plan).toMatchObject({
      kind: 'reset',
      cause: { part: 'connector', missing: false },
      remove: ['incident', 'zendesk'],
    });
    expect(existsSync(`${pgliteDir}.making`)).toBe(false);
    expect(existsSync(paths.zendeskFile)).toBe(false);
    expect(prepared.notices).toEqual([
      "The connector's database (.data/pglite) was left half-made by a start that did not finish (.data/pglite.making, removed): it is made again.",
      "Starting the demo fresh: the connector's database (.data/pglite) could not be used, so the incident sandbox's state (.data/sandbox/incident.json) and the Zendesk sandbox's state (.data/sandbox/zendesk.json) were reset too (else ticket, event and incident ids would repeat what the connector stored).",
    ]);
  });

  it('touches nothing while the demo runs', async () => {
    await saveIncidentSandbox();
    saveConnectorDatabase();
    // the parent of this test process stands in for a live connector holding its database
    writeFileSync(`${pgliteDir}.lock`, JSON.stringify({ pid: process.ppid }));
    expect(() => prepareDemoData(root, paths, NOW)).toThrow(
      new DemoRunningError(process.ppid, `the connector's database ${pgliteDir}`),
    );
    expect(existsSync(paths.incidentFile)).toBe(true);
    expect(existsSync(pgliteDir)).toBe(true);
    expect(existsSync(`${paths.incidentFile}.lock`)).toBe(false);
  });

  it('warns that a DATABASE_URL database is not looked at when the sandboxes start fresh', () => {
    const external = demoDataPaths(root, { DATABASE_URL: 'postgres://localhost/demo' });
    const prepared = prepareDemoData(root, external, NOW);
    expect(prepared.plan).toEqual({ kind: 'fresh' });
    expect(prepared.notices).toEqual([expect.stringContaining('DATABASE_URL')]);
  });

  it('reads the configured places from the repository', () => {
    expect(
      demoDataPaths('/repo', {
        SANDBOX_STATE_DIR: 'elsewhere',
        ZENDESK_SANDBOX_DATA_FILE: '/abs/z.json',
        PGLITE_DIR: 'db',
      }),
    ).toEqual({
      dataDir: '/repo/.data',
      incidentFile: '/repo/elsewhere/incident.json',
      zendeskFile: '/abs/z.json',
      connectorDb: { kind: 'pglite', dir: '/repo/db' },
    });
  });
});

describe('npm run reset', () => {
  it('removes the data folder whole', async () => {
    await saveIncidentSandbox();
    await saveZendeskSandbox();
    saveConnectorDatabase();
    writeFileSync(path.join(root, '.data', 'secret-keys.json'), '{}');
    expect(resetDemoData(root, paths)).toEqual(['.data/']);
    expect(existsSync(path.join(root, '.data'))).toBe(false);
    expect(resetDemoData(root, paths)).toEqual([]);
  });

  it('refuses while a sandbox runs on its state', async () => {
    await saveIncidentSandbox();
    const running = createZendeskSandbox({ stateFile: paths.zendeskFile });
    try {
      expect(() => resetDemoData(root, paths)).toThrow(DemoRunningError);
      expect(existsSync(paths.incidentFile)).toBe(true);
    } finally {
      await running.close();
    }
    resetDemoData(root, paths);
    expect(existsSync(path.join(root, '.data'))).toBe(false);
  });
});
