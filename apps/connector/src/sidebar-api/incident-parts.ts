// The incident-service parts of the ticket view, fetched in parallel and each allowed to fail on
// its own: a part that could not be read is listed in `unavailable`, never fails the view.
import type { TPartName, TUnavailablePart } from '@incident-desk/sidebar-contract';
import {
  APIConnectionError,
  APIError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  type IncidentClient,
  type TDetailedIncident,
  type TSnapshot,
  type TTakedownAttempts,
  type TUsage,
} from '@incident-desk/incident-api';
import { logger } from '../log';
import { retryAfterOf } from './sidebar-errors';

type TUnavailable = Omit<TUnavailablePart, 'part'>;

export interface IncidentParts {
  incident: TDetailedIncident | null;
  snapshots: TSnapshot[];
  takedownAttempts: TTakedownAttempts | null;
  usage: TUsage | null;
  unavailable: TUnavailablePart[];
}

type Part<T> = { ok: true; value: T } | { ok: false; unavailable: TUnavailable };

/** The resolutions search did not list the incident: its attempts are unknown, not "none". */
class NoResolutionEntry extends Error {}

function unavailableOf(part: TPartName, error: unknown): TUnavailable {
  if (error instanceof NoResolutionEntry) return { reason: 'not_found' };
  if (error instanceof PermissionDeniedError) return { reason: 'not_enabled' };
  // on resolutions a 404 means an incident of the page vanished: a temporary state
  if (error instanceof NotFoundError && part !== 'takedownAttempts') return { reason: 'not_found' };
  if (error instanceof RateLimitError) {
    const retryAfterSeconds = retryAfterOf(error.headers);
    return {
      reason: 'rate_limited',
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    };
  }
  if (error instanceof APIError || error instanceof APIConnectionError)
    return { reason: 'temporarily_unavailable' };
  logger.error(`sidebar view: ${part} could not be read`, { error });
  return { reason: 'temporarily_unavailable' };
}

async function settle<T>(part: TPartName, read: () => Promise<T>): Promise<Part<T>> {
  try {
    return { ok: true, value: await read() };
  } catch (error) {
    return { ok: false, unavailable: unavailableOf(part, error) };
  }
}

/**
 * The client each incident belongs to, which never changes: once known, the credits of that
 * client are read alongside the incident instead of after it. Bounded; keyed by account.
 */
export class IncidentClientIds {
  private readonly known = new Map<string, string>();
  constructor(private readonly maxEntries = 10_000) {}

  get(accountId: string, incidentId: string): string | undefined {
    return this.known.get(`${accountId}:${incidentId}`);
  }

  set(accountId: string, incidentId: string, clientId: string): void {
    if (this.known.size >= this.maxEntries) this.known.clear();
    this.known.set(`${accountId}:${incidentId}`, clientId);
  }
}

export async function readIncidentParts(
  incidents: IncidentClient,
  incidentId: string,
  clientIds?: { cache: IncidentClientIds; accountId: string },
): Promise<IncidentParts> {
  const incident = settle('incident', () => incidents.incidents.retrieve(incidentId));
  // credits belong to the incident's client (a sub-client may be unlimited or not use credits)
  const knownClientId = clientIds?.cache.get(clientIds.accountId, incidentId);
  const usage =
    knownClientId === undefined
      ? incident.then((read) =>
          settle('usage', () =>
            incidents.usage.retrieve(read.ok ? { clientId: read.value.clientId } : {}),
          ),
        )
      : Promise.all([
          incident,
          settle('usage', () => incidents.usage.retrieve({ clientId: knownClientId })),
        ]).then(([read, early]) =>
          // an id that no longer matches (the service's data was replaced) is read again
          read.ok && read.value.clientId !== knownClientId
            ? settle('usage', () => incidents.usage.retrieve({ clientId: read.value.clientId }))
            : early,
        );
  void incident.then((read) => {
    if (read.ok && clientIds)
      clientIds.cache.set(clientIds.accountId, incidentId, read.value.clientId);
  });
  const snapshots = settle(
    'snapshots',
    async () => (await incidents.incidents.snapshots(incidentId)).snapshots,
  );
  const attempts = settle('takedownAttempts', async () => {
    // a free-text search: it may list other incidents (a similar URL), never take one of those
    const page = await incidents.resolutions.listPage({ search: incidentId });
    const entry = page.data.find((item) => item.id === incidentId);
    if (!entry) throw new NoResolutionEntry();
    return entry;
  });

  const [incidentPart, usagePart, snapshotsPart, attemptsPart] = await Promise.all([
    incident,
    usage,
    snapshots,
    attempts,
  ]);
  const unavailable: TUnavailablePart[] = [];
  const valueOf = <T>(part: TPartName, read: Part<T>, fallback: T): T => {
    if (read.ok) return read.value;
    unavailable.push({ part, ...read.unavailable });
    return fallback;
  };
  return {
    incident: valueOf('incident', incidentPart, null),
    snapshots: valueOf('snapshots', snapshotsPart, []),
    takedownAttempts: valueOf('takedownAttempts', attemptsPart, null),
    usage: valueOf('usage', usagePart, null),
    unavailable,
  };
}
