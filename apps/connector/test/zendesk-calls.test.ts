// At most one Zendesk API call per applied incident event, counted by the
// Zendesk sandbox itself (its per-account request counter), with the real connector process.
// Every event kind that writes to a linked ticket is sent twice with distinct ids, one of them
// delivered a second time (a duplicate that must cost nothing).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  connectorDatabase,
  freePort,
  newSecretsKeys,
  startConnectorProcess,
  type ConnectorDatabase,
  type ConnectorProcess,
} from './support/connector-process';
import { eventually } from './support/eventually';
import { startProcessSandboxes, type ProcessSandboxes } from './support/process-sandboxes';
import { backends } from './support/test-database';

describe.each(backends)('Zendesk calls per applied event (%s)', (backend) => {
  let dir: string;
  let sandboxes: ProcessSandboxes;
  let database: ConnectorDatabase;
  let connector: ConnectorProcess | undefined;
  const run = randomBytes(3).toString('hex');

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'incident-desk-calls-'));
    sandboxes = await startProcessSandboxes();
    database = connectorDatabase(backend, dir, 'calls');
    connector = await startConnectorProcess({
      port: await freePort(),
      zendeskUrl: sandboxes.zendeskUrl,
      incidentUrl: sandboxes.incidentUrl,
      database,
      secretsKeys: newSecretsKeys(),
    });
  });

  afterEach((context) => {
    if (context.task.result?.state === 'fail' && connector) {
      console.error(`--- connector output ---\n${connector.output()}`);
    }
  });

  afterAll(async () => {
    await connector?.stop();
    await sandboxes?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('coalesces the events’ notes, Status field and ticket status into few ticket updates', async () => {
    const ticketId = await sandboxes.createTicket({
      threat: `https://login-${run}.calls-${backend}.test/signin`,
    });
    const incidentId = await eventually('the ticket linked', async () => {
      const ticket = await sandboxes.readTicket(ticketId);
      const id = sandboxes.fieldValue(ticket, sandboxes.seed.incidentFieldId);
      return ticket.ticket.tags.includes('incident_linked') && typeof id === 'string' && id
        ? id
        : undefined;
    });
    // The report's own events (incident.created and the like) are handled before counting starts.
    await sandboxes.incidentDeliveriesIdle();
    await connector!.queuesIdle();
    await sandboxes.zendeskQuiet();
    await sandboxes.resetApiRequests();

    const at = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();
    const events = [
      { event: 'incident.status_changed', data: { status: 'case_building' } },
      { event: 'incident.history_created', data: { historyEntry: { message: 'Case opened.' } } },
      { event: 'incident.takedown_updated', data: {} },
      { event: 'incident.action_required', data: { waitForClient: 'Confirm the brand.' } },
      { event: 'incident.status_changed', data: { status: 'takedown_in_progress' } },
      {
        event: 'incident.history_created',
        data: { historyEntry: { message: 'Takedown started.' } },
      },
      { event: 'incident.takedown_updated', data: {} },
      { event: 'incident.action_required', data: {} },
    ].map((e, i) => ({
      id: `evt_calls_${run}_${i}`,
      event: e.event,
      timestamp: at(i),
      data: { incidentId, ...e.data },
    }));
    for (const envelope of events) {
      expect(await sandboxes.deliverIncidentEvent(envelope)).toBe(200);
    }
    expect(await sandboxes.deliverIncidentEvent(events[0]!)).toBe(200); // a redelivery

    // takedown updates that found nothing new add no note line: they ride on the write of the
    // changes beside them, still named by its audit
    await eventually('a write for every event', async () => {
      const writes = (await sandboxes.eventWrites(ticketId)).flat();
      return events.every((e) => writes.includes(e.id)) ? true : undefined;
    });
    await connector!.queuesIdle();
    const calls = await sandboxes.zendeskQuiet();

    // the events' changes are coalesced: far fewer ticket updates than events, and nothing else
    // (but the uninstall check, which polls each account's app installations on its own clock)
    const { 'GET /api/v2/apps/installations': polls = 0, ...byEndpoint } = (
      await sandboxes.apiRequests()
    ).by_endpoint;
    expect(Object.keys(byEndpoint)).toEqual(['PUT /api/v2/tickets/{id}']);
    const updates = byEndpoint['PUT /api/v2/tickets/{id}']!;
    expect(calls).toBe(updates + polls);
    expect(updates).toBeLessThanOrEqual(Math.ceil(events.length / 2));
    const ticket = await sandboxes.readTicket(ticketId);
    expect(sandboxes.fieldValue(ticket, sandboxes.seed.statusFieldId)).toBe(
      'incident_status_takedown_in_progress',
    );
  });
});
