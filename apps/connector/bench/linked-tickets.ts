// Tickets linked the way an agent links them: opened with a threat and the report tag, reported by
// the connector, and linked once the ticket carries the incident_linked tag and the Incident ID.
// Waiting for links follows progress: it goes on while tickets keep getting linked.
import type { DemoSeed } from '@incident-desk/zendesk-sandbox';
import { whileProgressing, withRetriedMethods } from '../../../scripts/bench-support';
import { sandboxControls } from '../test/support/process-sandboxes';

export type SandboxControls = ReturnType<typeof sandboxControls>;

export interface LinkedTicket {
  ticketId: number;
  incidentId: string;
}

/** The sandboxes' control APIs for one account, each call tried again on a failed connection. */
export function benchControls(sandboxes: {
  zendeskUrl: string;
  incidentUrl: string;
  seed: DemoSeed;
}): SandboxControls {
  return withRetriedMethods(
    sandboxControls(sandboxes.zendeskUrl, sandboxes.incidentUrl, sandboxes.seed),
    'sandbox control',
  );
}

/** The ticket's incident once it is linked, else undefined. */
export async function linkOf(
  controls: SandboxControls,
  ticketId: number,
): Promise<LinkedTicket | undefined> {
  const ticket = await controls.readTicket(ticketId);
  const incidentId = controls.fieldValue(ticket, controls.seed.incidentFieldId);
  if (typeof incidentId !== 'string' || !ticket.ticket.tags.includes('incident_linked'))
    return undefined;
  return { ticketId, incidentId };
}

export interface ReportedTicket {
  controls: SandboxControls;
  ticketId: number;
}

/**
 * The links of the tickets, read again (those not linked yet) until every one is linked, or none
 * got linked for `stallMs`; in the order given, undefined for a ticket not linked.
 */
export async function collectLinks(
  what: string,
  tickets: readonly ReportedTicket[],
  stallMs: number,
  intervalMs = 500,
): Promise<(LinkedTicket | undefined)[]> {
  const links: (LinkedTicket | undefined)[] = tickets.map(() => undefined);
  let linked = 0;
  await whileProgressing({
    what,
    stallMs,
    intervalMs,
    probe: async () => {
      for (const [index, { controls, ticketId }] of tickets.entries()) {
        if (links[index]) continue;
        links[index] = await linkOf(controls, ticketId);
        if (links[index]) linked += 1;
      }
      return { done: linked === tickets.length, count: linked, of: tickets.length };
    },
  });
  return links;
}

/** Waits until every ticket is linked; fails once none got linked for `stallMs`. */
export async function untilLinked(
  controls: SandboxControls,
  ticketIds: readonly number[],
  stallMs: number,
  intervalMs = 500,
): Promise<LinkedTicket[]> {
  const what = `${ticketIds.length} tickets of ${controls.seed.subdomain} linked`;
  const links = await collectLinks(
    what,
    ticketIds.map((ticketId) => ({ controls, ticketId })),
    stallMs,
    intervalMs,
  );
  const missing = links.filter((link) => !link).length;
  if (missing > 0)
    throw new Error(`${what}: ${missing} not linked, none newly linked for ${stallMs} ms`);
  return links as LinkedTicket[];
}

/** Opens one ticket per threat, tagged for report, and waits until the connector linked them all. */
export async function reportAndLink(
  controls: SandboxControls,
  threats: readonly string[],
  stallMs: number,
  intervalMs = 500,
): Promise<LinkedTicket[]> {
  const ticketIds: number[] = [];
  for (const threat of threats) ticketIds.push(await controls.createTicket({ threat }));
  return untilLinked(controls, ticketIds, stallMs, intervalMs);
}
