// Tickets linked the way an agent links them: opened with a threat and the report tag, reported by
// the connector, and linked once the ticket carries the incident_linked tag and the Incident ID.
import { eventually } from '../test/support/eventually';
import type { sandboxControls } from '../test/support/process-sandboxes';

export type SandboxControls = ReturnType<typeof sandboxControls>;

export interface LinkedTicket {
  ticketId: number;
  incidentId: string;
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

/** Waits until every ticket is linked (reading only those not linked yet); in the order given. */
export async function untilLinked(
  controls: SandboxControls,
  ticketIds: readonly number[],
  timeoutMs: number,
  intervalMs = 500,
): Promise<LinkedTicket[]> {
  const linked = new Map<number, LinkedTicket>();
  return eventually(
    `${ticketIds.length} tickets of ${controls.seed.subdomain} linked`,
    async () => {
      for (const ticketId of ticketIds) {
        if (linked.has(ticketId)) continue;
        const link = await linkOf(controls, ticketId);
        if (!link) return undefined;
        linked.set(ticketId, link);
      }
      return ticketIds.map((ticketId) => linked.get(ticketId)!);
    },
    timeoutMs,
    intervalMs,
  );
}

/** Opens one ticket per threat, tagged for report, and waits until the connector linked them all. */
export async function reportAndLink(
  controls: SandboxControls,
  threats: readonly string[],
  timeoutMs: number,
  intervalMs = 500,
): Promise<LinkedTicket[]> {
  const ticketIds: number[] = [];
  for (const threat of threats) ticketIds.push(await controls.createTicket({ threat }));
  return untilLinked(controls, ticketIds, timeoutMs, intervalMs);
}
