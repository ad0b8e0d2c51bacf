import { LINK_STATES, type TSidebarTicketView } from './sidebarContract';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A light structural check at the edge (zod stays out of the bundle): the connector parsed the
 * incident service's data with the shared schemas; here we only refuse a body that is not a view,
 * and default the optional parts so the components never meet undefined arrays.
 */
export function parseTicketView(body: unknown): TSidebarTicketView | null {
  if (!isObject(body) || !isObject(body.ticket)) return null;
  const ticket = body.ticket;
  if (!(LINK_STATES as readonly unknown[]).includes(ticket.linkState)) return null;
  if (typeof ticket.id !== 'number' && typeof ticket.id !== 'string') return null;
  const incident = isObject(body.incident) ? body.incident : null;
  if (incident && (typeof incident.id !== 'string' || typeof incident.status !== 'string'))
    return null;
  const sync = isObject(body.sync) ? body.sync : {};
  return {
    ticket: {
      id: Number(ticket.id),
      linkState: ticket.linkState as TSidebarTicketView['ticket']['linkState'],
      incidentId: typeof ticket.incidentId === 'string' ? ticket.incidentId : null,
      threat: typeof ticket.threat === 'string' ? ticket.threat : null,
      unlinkedReason: typeof ticket.unlinkedReason === 'string' ? ticket.unlinkedReason : undefined,
      unlinkedCause:
        ticket.unlinkedCause === 'duplicate' || ticket.unlinkedCause === 'failed'
          ? ticket.unlinkedCause
          : undefined,
      fieldIds: isObject(ticket.fieldIds)
        ? (ticket.fieldIds as TSidebarTicketView['ticket']['fieldIds'])
        : {},
    },
    incident: incident
      ? ({
          ...incident,
          history: Array.isArray(incident.history) ? incident.history : [],
          blocklists: Array.isArray(incident.blocklists) ? incident.blocklists : [],
        } as unknown as TSidebarTicketView['incident'])
      : null,
    snapshots: Array.isArray(body.snapshots)
      ? (body.snapshots as TSidebarTicketView['snapshots'])
      : [],
    takedownAttempts: isObject(body.takedownAttempts)
      ? ({
          ...body.takedownAttempts,
          takedownAttempts: Array.isArray(body.takedownAttempts.takedownAttempts)
            ? body.takedownAttempts.takedownAttempts
            : [],
        } as unknown as TSidebarTicketView['takedownAttempts'])
      : null,
    usage: isObject(body.usage) ? (body.usage as unknown as TSidebarTicketView['usage']) : null,
    sync: {
      lastEventAppliedAt:
        typeof sync.lastEventAppliedAt === 'string' ? sync.lastEventAppliedAt : null,
      pendingForwards: typeof sync.pendingForwards === 'number' ? sync.pendingForwards : 0,
      failedForwards: Array.isArray(sync.failedForwards)
        ? (sync.failedForwards as TSidebarTicketView['sync']['failedForwards'])
        : [],
      waitingTicketUpdates:
        typeof sync.waitingTicketUpdates === 'number' ? sync.waitingTicketUpdates : 0,
      waitingSince: typeof sync.waitingSince === 'string' ? sync.waitingSince : null,
    },
    unavailable: Array.isArray(body.unavailable)
      ? (body.unavailable as TSidebarTicketView['unavailable'])
      : [],
    fetchedAt: typeof body.fetchedAt === 'string' ? body.fetchedAt : new Date().toISOString(),
  };
}
