import type { TSidebarTicketView, TUnavailablePart } from '@incident-desk/sidebar-contract';

export type TDetailSection =
  | 'history'
  | 'liveState'
  | 'infrastructure'
  | 'blocklists'
  | 'attempts'
  | 'insightsSnapshots'
  | 'overview'
  | 'credits';

const NON_DOMAIN_TYPES = ['email', 'phone', 'ipv4'];

/** A part missing for a reason the agent should know (not "not enabled", which is not news). */
function worthSaying(unavailable: TUnavailablePart | undefined): boolean {
  return unavailable !== undefined && unavailable.reason !== 'not_enabled';
}

/**
 * The detail sections that have something to say for this view, in display order: a section
 * with nothing in it (a new incident, an email incident) is left out rather than shown empty.
 */
export function detailSectionsFor(view: TSidebarTicketView): TDetailSection[] {
  const incident = view.incident;
  if (!incident) return [];
  const unavailable = (part: TUnavailablePart['part']) =>
    view.unavailable.find((u) => u.part === part);
  const insights = incident.insights;
  const hasInsights =
    insights !== undefined &&
    Object.entries(insights).some(([key, value]) => key !== 'snapshotTimestamp' && value != null);
  const snapshotsApply =
    !NON_DOMAIN_TYPES.includes(incident.incidentType) &&
    (view.snapshots.length > 0 || worthSaying(unavailable('snapshots')));
  const sections: [TDetailSection, boolean][] = [
    ['history', incident.history.length > 0],
    [
      'liveState',
      Boolean(incident.incidentState) &&
        (Boolean(incident.incidentState.timestamp) ||
          Object.values(incident.incidentState).some((value) => value === true)),
    ],
    [
      'infrastructure',
      Boolean(
        incident.registrar?.name ||
        incident.registrar?.difficulty ||
        incident.registrar?.description ||
        incident.hostingProvider,
      ),
    ],
    ['blocklists', incident.blocklists.length > 0],
    [
      'attempts',
      (view.takedownAttempts?.takedownAttempts.length ?? 0) > 0 ||
        (view.takedownAttempts === null && worthSaying(unavailable('takedownAttempts'))),
    ],
    ['insightsSnapshots', hasInsights || snapshotsApply],
    ['overview', true],
    ['credits', view.usage !== null || worthSaying(unavailable('usage'))],
  ];
  return sections.filter(([, applies]) => applies).map(([id]) => id);
}
