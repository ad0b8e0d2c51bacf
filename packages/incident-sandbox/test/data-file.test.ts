/* eslint-disable @typescript-eslint/no-explicit-any -- raw wire bodies are asserted field by field */
// The file-backed mode `npm start` uses: the state survives a stop and a start, ids go on from
// where they were, an unusable file is set aside, and one file has one sandbox at a time.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { StateFileLockedError } from '@incident-desk/state-file';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readIncidentSandboxStateFile, type IncidentSandboxOptions } from '../src';
import { startReceiver, startSandbox as startAnySandbox, type Harness } from './helpers';

let dir: string;
let dataFile: string;
const opened: Harness[] = [];
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'incident-sandbox-file-'));
  dataFile = path.join(dir, 'incident.json');
});
afterEach(async () => {
  // closed before the folder goes: a close writes the file a last time
  while (opened.length) await opened.pop()?.sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

async function startSandbox(options: IncidentSandboxOptions): Promise<Harness> {
  const harness = await startAnySandbox(options);
  opened.push(harness);
  return harness;
}

/** Polls `probe` until it has a value; minutes, not seconds: a loaded machine is slow, not wrong. */
async function until<T>(probe: () => T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('the data file', () => {
  it('keeps incidents, subscriptions and counters across a restart: new ids never repeat', async () => {
    const receiver = await startReceiver();
    const first = await startSandbox({ dataFile });
    expect(first.sandbox.dataFile).toEqual({ kind: 'created', file: dataFile });
    await first.api('/v1/webhooks', {
      method: 'POST',
      json: { url: receiver.url, events: ['incident.status_changed'], description: 'all' },
    });
    const before = await first.api('/v1/incident/tkd', {
      method: 'POST',
      json: { url: 'https://before-restart.example' },
    });
    const record = (await first.control('GET', `/incidents/${before.body.id}`)).body;
    await first.control('POST', `/incidents/${record.id}/advance`, { status: 'case_building' });
    await receiver.waitFor(1);
    await first.sandbox.idle(); // delivered, not only received: else it is sent again after the restart
    await first.sandbox.close();

    const second = await startSandbox({ dataFile });
    expect(second.sandbox.dataFile).toEqual({ kind: 'loaded', file: dataFile });
    expect((await second.api(`/v1/incident/${before.body.id}`)).status).toBe(200);
    const after = await second.api('/v1/incident/tkd', {
      method: 'POST',
      json: { url: 'https://after-restart.example' },
    });
    expect(after.body.id).not.toBe(before.body.id);
    const afterRecord = (await second.control('GET', `/incidents/${after.body.id}`)).body;
    expect(afterRecord.id).not.toBe(record.id);
    // the subscription was kept: the move after the restart is delivered, under a new event id
    await second.control('POST', `/incidents/${afterRecord.id}/advance`, {
      status: 'case_building',
    });
    await receiver.waitFor(2);
    const eventIds = receiver.received.map((d: any) => d.body.id);
    expect(new Set(eventIds).size).toBe(2);
  });

  it('is written shortly after a change, not only on close', async () => {
    const h = await startSandbox({ dataFile, saveDelayMs: 10 });
    const report = await h.api('/v1/incident/tkd', {
      method: 'POST',
      json: { url: 'https://written-soon.example' },
    });
    await until(() => {
      const read = readIncidentSandboxStateFile(dataFile);
      return read.kind === 'loaded' &&
        read.state.incidents.some((i) => i.ref === report.body.id || i.id === report.body.id)
        ? true
        : undefined;
    }, 'the report in the file');
  });

  it('sets an unusable file aside and starts from the seed', async () => {
    writeFileSync(dataFile, '{"version":1,"counters":');
    const h = await startSandbox({ dataFile });
    const outcome = h.sandbox.dataFile;
    expect(outcome).toMatchObject({ kind: 'set-aside', file: dataFile });
    if (outcome?.kind !== 'set-aside') return;
    expect(outcome.reason).toMatch(/not JSON/);
    expect(readFileSync(outcome.asidePath, 'utf8')).toBe('{"version":1,"counters":');
    expect((await h.api('/v1/incidents')).status).toBe(200); // seeded
    expect(readIncidentSandboxStateFile(dataFile).kind).toBe('loaded'); // a fresh file at once
  });

  it('names an incompatible version as the reason', () => {
    writeFileSync(dataFile, JSON.stringify({ version: 2 }));
    expect(readIncidentSandboxStateFile(dataFile)).toEqual({
      kind: 'unusable',
      reason: 'state version 2; this sandbox reads version 1',
    });
  });

  it('belongs to one sandbox at a time', async () => {
    const first = await startSandbox({ dataFile });
    await expect(startSandbox({ dataFile })).rejects.toThrow(StateFileLockedError);
    await first.sandbox.close();
    expect(existsSync(`${dataFile}.lock`)).toBe(false);
    await startSandbox({ dataFile });
  });
});
