// A connector killed with SIGKILL between receiving and processing loses
// nothing and never reports a threat twice. The real connector runs as a child process (src/main.ts,
// the demo wiring) against both sandboxes in this process, on a database that outlives it. Webhooks
// come from the real senders: the incident sandbox signs its events, the Zendesk sandbox its trigger
// deliveries. CONNECTOR_WORKER=off holds processing back deterministically: the receivers
// acknowledge, nothing is applied, until the process is killed and started again with its worker.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  newSecretsKeys,
  startConnectorProcess,
  type ConnectorDatabase,
  type ConnectorProcess,
} from './support/connector-process';
import { eventually } from './support/eventually';
import { startProcessSandboxes, type ProcessSandboxes } from './support/process-sandboxes';
import { backends, testConnectorDatabase } from './support/test-database';

/** Incident events that put a note on a linked ticket (incident.created is a no-op when linked). */
const NOTE_EVENTS = new Set([
  'incident.status_changed',
  'incident.history_created',
  'incident.takedown_updated',
  'incident.action_required',
]);

/** How many of the ticket's writes applied event `eventId` (their audits name every event). */
function writesOfEvent(writes: string[][], eventId: string): number {
  return writes.filter((events) => events.includes(eventId)).length;
}

describe.each(backends)('connector killed with SIGKILL (%s)', (backend) => {
  let dir: string;
  let sandboxes: ProcessSandboxes;
  let database: ConnectorDatabase;
  let port: number;
  let secretsKeys: string;
  let connector: ConnectorProcess | undefined;
  const run = randomBytes(3).toString('hex');

  async function start(
    worker: 'on' | 'off',
    jobTimeoutSeconds?: number,
  ): Promise<ConnectorProcess> {
    connector = await startConnectorProcess({
      port,
      zendeskUrl: sandboxes.zendeskUrl,
      incidentUrl: sandboxes.incidentUrl,
      database,
      secretsKeys,
      worker,
      ...(jobTimeoutSeconds === undefined ? {} : { jobTimeoutSeconds }),
    });
    return connector;
  }

  const linkedIncidentOf = (ticketId: number): Promise<string> =>
    eventually(`ticket ${ticketId} linked`, () => sandboxes.linkedIncident(ticketId));

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'incident-desk-crash-'));
    sandboxes = await startProcessSandboxes();
    database = testConnectorDatabase(backend, dir, 'crash');
    port = await freePort();
    secretsKeys = newSecretsKeys();
  });

  afterEach((context) => {
    if (context.task.result?.state === 'fail' && connector) {
      console.error(`--- connector output (pid ${connector.pid}) ---\n${connector.output()}`);
    }
  });

  afterAll(async () => {
    await connector?.kill();
    await sandboxes?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('applies every acknowledged incident event once and reports an acknowledged threat once', async () => {
    // A ticket linked the normal way, so its incident's events have a ticket to land on.
    await start('on');
    const ticketA = await sandboxes.createTicket({
      threat: `https://login-a-${run}.crash-${backend}.test/signin`,
    });
    const incidentA = await linkedIncidentOf(ticketA);
    await connector!.kill();

    // Receivers only: events and a report delivery are acknowledged, nothing is applied.
    await start('off');
    const notesBefore = await sandboxes.internalNotes(ticketA);
    const earlier = new Set(sandboxes.incidentDeliveries(incidentA).map((d) => d.id));
    await sandboxes.advance(incidentA, {
      status: 'case_building',
      message: `Analyst ${run} started building the case.`,
    });
    await sandboxes.advance(incidentA, { status: 'takedown_in_progress' });
    await sandboxes.advance(incidentA, {
      status: 'action_required',
      waitForClient: 'Confirm that you own the brand.',
    });
    await sandboxes.duplicateNextZendeskDeliveries(1);
    const threatB = `https://login-b-${run}.crash-${backend}.test/signin`;
    const ticketB = await sandboxes.createTicket({ threat: threatB });

    await sandboxes.incidentDeliveriesIdle();
    const acknowledged = sandboxes.incidentDeliveries(incidentA).filter((d) => !earlier.has(d.id));
    expect(acknowledged.map((d) => d.state)).toEqual(acknowledged.map(() => 'delivered'));
    const toApply = acknowledged.filter((d) => NOTE_EVENTS.has(d.event));
    expect(toApply.length).toBeGreaterThanOrEqual(4);
    const reportDeliveries = (await sandboxes.zendeskDeliveries()).filter(
      (d) => d.ticket_id === ticketB,
    );
    expect(reportDeliveries.length).toBe(2); // the delivery and its injected duplicate
    expect(reportDeliveries.every((d) => d.state === 'succeeded')).toBe(true);
    // Held back: acknowledged, but nothing has reached either system.
    expect(await sandboxes.internalNotes(ticketA)).toEqual(notesBefore);
    expect(sandboxes.incidentsFor(threatB)).toEqual([]);

    await connector!.kill();
    await start('on');

    let applied = 0;
    await eventually(
      'a note for every acknowledged event',
      async () => {
        const writes = await sandboxes.eventWrites(ticketA);
        applied = toApply.filter((d) => writesOfEvent(writes, d.eventId) > 0).length;
        return applied === toApply.length ? true : undefined;
      },
      { progress: () => applied },
    );
    const incidentB = await linkedIncidentOf(ticketB);
    await sandboxes.incidentDeliveriesIdle();
    await connector!.queuesIdle();

    const writesA = await sandboxes.eventWrites(ticketA);
    for (const delivery of toApply) {
      expect(
        writesOfEvent(writesA, delivery.eventId),
        `${delivery.event} ${delivery.eventId}`,
      ).toBe(1);
    }
    // Nothing twice, nothing invented: every write names events the service delivered (events
    // acknowledged by the first life included), and no event is in two writes.
    const delivered = new Set(sandboxes.incidentDeliveries(incidentA).map((d) => d.eventId));
    const noteRefs = writesA.flat();
    expect(noteRefs.filter((ref) => !delivered.has(ref))).toEqual([]);
    expect(noteRefs.length).toBe(new Set(noteRefs).size);
    const ticketAState = await sandboxes.readTicket(ticketA);
    expect(sandboxes.fieldValue(ticketAState, sandboxes.seed.statusFieldId)).toBe(
      'incident_status_action_required',
    );

    const reported = sandboxes.incidentsFor(threatB);
    expect(reported).toHaveLength(1);
    expect([reported[0]!.id, reported[0]!.ref]).toContain(incidentB);
    const notesB = await sandboxes.internalNotes(ticketB);
    expect(notesB.filter((n) => n.includes('Reported to the incident service'))).toHaveLength(1);
  });

  it('a kill while the report is in flight reconciles within seconds instead of reporting again', async () => {
    await connector?.kill(); // independent of how the previous test ended
    // the production time limit: the job comes back through its silent heartbeat, not its expiry
    await start('on', 300);
    // The service holds the report's answer long enough for the connector to die waiting for it.
    await sandboxes.incidentFault({
      method: 'POST',
      path: '/v1/incident/tkd',
      kind: 'latency',
      latencyMs: 3_000,
      times: 1,
    });
    const threatC = `https://login-c-${run}.crash-${backend}.test/signin`;
    const ticketC = await sandboxes.createTicket({ threat: threatC });
    // A fault with `times: 1` leaves the list once a request has hit it: the POST is in flight,
    // so the ReportAttempt row already says `sending`.
    await eventually('the report request at the service', async () =>
      (await sandboxes.incidentFaults()).length === 0 ? true : undefined,
    );
    await connector!.kill();
    // The service finishes the request it was holding: the threat is reported, once.
    await eventually('the incident created by the interrupted report', async () =>
      sandboxes.incidentsFor(threatC).length > 0 ? true : undefined,
    );

    await start('on', 300);
    // The job left active by the killed process runs again once its heartbeat has been silent
    // (dead-job-sweep.ts), not once its 300 s time limit has passed: the sweep says so.
    const reconciled = await eventually('the reconciliation note', async () => {
      const ticket = await sandboxes.readTicket(ticketC);
      return ticket.ticket.tags.includes('incident_unlinked') ? ticket : undefined;
    });
    expect(connector!.output()).toMatch(/recovered job .* of a dead worker/);
    await connector!.queuesIdle();

    expect(sandboxes.incidentsFor(threatC)).toHaveLength(1);
    const notes = await sandboxes.internalNotes(ticketC);
    expect(notes.filter((n) => n.includes('stopped while the report was being sent'))).toHaveLength(
      1,
    );
    // no second POST: a second report of the same threat would have answered 409 (a duplicate)
    expect(notes.some((n) => /already has an incident|answered 409/.test(n))).toBe(false);
    expect(reconciled.ticket.tags).not.toContain('incident_linked');
    expect(sandboxes.fieldValue(reconciled, sandboxes.seed.incidentFieldId) ?? null).toBeNull();
    if (database.query) {
      const attempts = await database.query<{ state: string }>(
        'SELECT state::text AS state FROM report_attempt WHERE ticket_id = $1',
        [ticketC],
      );
      expect(attempts).toEqual([{ state: 'failed' }]);
    }
  });
});
