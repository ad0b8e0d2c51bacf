import type { IncidentRecord } from '../state/model';

// Wire shapes of the spec's IncidentStructure, DetailedIncidentStructure and TakedownAttemptsStructure.
// Optional fields are omitted (never null) when they do not apply, as the real service does.

function definedOnly<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

export function toListItem(incident: IncidentRecord): Record<string, unknown> {
  return definedOnly({
    id: incident.id,
    clientId: incident.clientId,
    safeDomain: incident.safeDomain,
    subject: incident.subject,
    incidentType: incident.incidentType,
    domain: incident.domain,
    url: incident.url,
    source: incident.source,
    status: incident.status,
    // Deprecated but still returned, with the same computed value as status.
    statusVerbose: incident.status,
    timestamp: incident.timestamp,
    lastHistoryUpdateTimestamp: incident.lastHistoryUpdateTimestamp,
    burnStartedTimestamp: incident.burnStartedTimestamp,
    takedownTimestamp: incident.takedownTimestamp,
    reportedBy: incident.reportedBy,
    threatTaxonomy: incident.threatTaxonomy
      ? { name: incident.threatTaxonomy.name, description: incident.threatTaxonomy.description }
      : undefined,
    incidentClass: incident.incidentClass,
  });
}

function insightsOf(incident: IncidentRecord): Record<string, unknown> | undefined {
  // Snapshots are newest first: the first one carrying data wins.
  const source = incident.snapshots.find((s) => s.insights && Object.keys(s.insights).length > 0);
  if (!source?.insights) return undefined;
  return { snapshotTimestamp: source.timestamp, ...source.insights };
}

export function toDetail(incident: IncidentRecord): Record<string, unknown> {
  return definedOnly({
    ...toListItem(incident),
    threatTaxonomy: incident.threatTaxonomy,
    history: incident.history.map((h) =>
      definedOnly({ timestamp: h.timestamp, message: h.message, author: h.author }),
    ),
    incidentState: incident.incidentState,
    registrar: incident.registrar,
    hostingProvider: incident.hostingProvider,
    blocklists: incident.blocklists,
    insights: insightsOf(incident),
  });
}

export function toSnapshot(snapshot: IncidentRecord['snapshots'][number]): Record<string, unknown> {
  return definedOnly({
    id: snapshot.id,
    incidentId: snapshot.incidentId,
    type: snapshot.type,
    timestamp: snapshot.timestamp,
    description: snapshot.description,
    dns: snapshot.dns,
    whois: snapshot.whois,
    certificate: snapshot.certificate,
  });
}

export function toTakedownAttempts(
  incident: IncidentRecord,
  attempts = incident.takedownAttempts,
): Record<string, unknown> {
  return {
    id: incident.id,
    subject: incident.subject,
    createdAt: incident.timestamp,
    takedownAttempts: attempts.map(({ startedAt, resolvedAt, outcome }) => ({
      startedAt,
      resolvedAt,
      outcome,
    })),
  };
}
