// Two worker PROCESSES on one PostgreSQL apply each event once. Two real
// connector processes share one schema behind a round-robin proxy, the address the sandboxes'
// webhooks were registered with, so the real senders' deliveries reach either. A batch of reports
// and incident events for many tickets must come out with one incident per threat, one note per
// event, each ticket's notes in the order its events were acknowledged, and the newest status.
// PGlite is one process by design (its data folder is locked to its holder), so PostgreSQL only.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './support/eventually';
import type { ProcessSandboxes } from './support/process-sandboxes';
import {
  startTwoConnectorProcesses,
  type TwoConnectorProcesses,
} from './support/two-connector-processes';

const TICKETS = 6;
/** Each step's events are acknowledged before the next step is taken, so order is defined. */
const STEPS: Record<string, unknown>[] = [
  { status: 'case_building', message: 'Analyst started building the case.' },
  { status: 'takedown_in_progress' },
  { status: 'takedown_success', message: 'The page is down.' },
];
const NOTE_EVENTS = new Set([
  'incident.status_changed',
  'incident.history_created',
  'incident.takedown_updated',
  'incident.action_required',
]);

const postgres = Boolean(process.env.DATABASE_URL);

describe.runIf(postgres)('two connector processes on one PostgreSQL', () => {
  let stack: TwoConnectorProcesses;
  let sandboxes: ProcessSandboxes;
  const run = randomBytes(3).toString('hex');

  beforeAll(async () => {
    stack = await startTwoConnectorProcesses('two-workers', { WORKER_CONCURRENCY: '4' });
    sandboxes = stack.sandboxes;
  });

  afterEach((context) => {
    if (context.task.result?.state === 'fail') console.error(stack.outputs());
  });

  afterAll(async () => {
    await stack?.close();
  });

  it('applies every event once, in each ticket’s order, and reports each threat once', async () => {
    const threats = Array.from(
      { length: TICKETS },
      (_, i) => `https://login-${i}-${run}.two-workers.test/signin`,
    );
    // Reports: one trigger delivery per ticket, the first sent twice by Zendesk.
    await sandboxes.duplicateNextZendeskDeliveries(1);
    const ticketIds = await Promise.all(
      threats.map((threat) => sandboxes.createTicket({ threat })),
    );
    const incidentIds = await sandboxes.linkedIncidents(ticketIds);

    // Each step for every incident at once; the next step once all its events are acknowledged.
    const stepOf = new Map<string, number>(); // event id -> step
    for (const [step, body] of STEPS.entries()) {
      const before = new Set(incidentIds.flatMap((id) => sandboxes.incidentDeliveries(id)));
      const seen = new Set([...before].map((d) => d.id));
      await Promise.all(incidentIds.map((id) => sandboxes.advance(id, body)));
      await sandboxes.incidentDeliveriesIdle();
      for (const id of incidentIds) {
        for (const delivery of sandboxes.incidentDeliveries(id)) {
          if (seen.has(delivery.id)) continue;
          expect(delivery.state, `${delivery.event} for ${id}`).toBe('delivered');
          stepOf.set(delivery.eventId, step);
        }
      }
    }

    const expected = new Map(
      incidentIds.map((incidentId, i) => [
        ticketIds[i]!,
        sandboxes
          .incidentDeliveries(incidentId)
          .filter((d) => NOTE_EVENTS.has(d.event) && stepOf.has(d.eventId))
          .map((d) => d.eventId),
      ]),
    );
    // every step emits at least a status change per incident
    for (const events of expected.values())
      expect(events.length).toBeGreaterThanOrEqual(STEPS.length);
    const eventRefs = async (ticketId: number) => (await sandboxes.eventWrites(ticketId)).flat();
    await eventually('a note for every event', async () => {
      for (const [ticketId, events] of expected) {
        const refs = new Set(await eventRefs(ticketId));
        if (!events.every((id) => refs.has(id))) return undefined;
      }
      return true;
    });
    for (const instance of stack.instances) await instance.queuesIdle();

    // The sandboxes' deliveries really went to both processes.
    const forwarded = stack.proxy.forwarded();
    for (const instance of stack.instances)
      expect(forwarded.get(instance.url) ?? 0).toBeGreaterThan(0);

    for (const [i, threat] of threats.entries()) {
      expect(sandboxes.incidentsFor(threat), threat).toHaveLength(1);
      const ticketId = ticketIds[i]!;
      const notes = await sandboxes.internalNotes(ticketId);
      expect(notes.filter((n) => n.includes('Reported to the incident service'))).toHaveLength(1);

      const refs = await eventRefs(ticketId);
      const delivered = new Set(
        sandboxes.incidentDeliveries(incidentIds[i]!).map((d) => d.eventId),
      );
      expect(
        refs.filter((ref) => !delivered.has(ref)),
        `ticket ${ticketId}`,
      ).toEqual([]);
      expect(refs.length, `duplicate notes on ticket ${ticketId}`).toBe(new Set(refs).size);
      // Notes of a later step never come before those of an earlier one.
      const steps = refs.filter((ref) => stepOf.has(ref)).map((ref) => stepOf.get(ref)!);
      expect(steps, `note order on ticket ${ticketId}`).toEqual([...steps].sort((a, b) => a - b));
      const ticket = await sandboxes.readTicket(ticketId);
      expect(sandboxes.fieldValue(ticket, sandboxes.seed.statusFieldId)).toBe(
        'incident_status_takedown_success',
      );
    }
  });
});

describe.skipIf(postgres)('two connector processes on one PostgreSQL', () => {
  it.skip('needs DATABASE_URL: PGlite serves one process at a time (its folder is locked)', () => {});
});
