// What the analytics read of one incident client, bounded: its credits, its incidents of the
// window, their takedown attempts, those waiting on the customer, and a capped number of details
// read a few at a time. A part the service did not answer is named in `partial`.
import type { TakedownAnalytics } from '@incident-desk/admin-contract';
import {
  ResolutionsForbiddenError,
  type IncidentClient,
  type TDetailedIncident,
  type TIncident,
  type TTakedownAttempts,
} from '@incident-desk/incident-api';
import type { ClientReads } from './analytics-aggregate';

export type AnalyticsClient = Pick<IncidentClient, 'incidents' | 'resolutions' | 'usage'>;

interface ClientReadLimits {
  incidentsPerClient: number;
  waiting: number;
  detailConcurrency: number;
}

export interface ClientReadRequest {
  client: AnalyticsClient;
  clientId: string;
  fromDate: Date;
  limits: ClientReadLimits;
  /** Details this client may still read. */
  detailBudget: number;
  /** One incident's detail (cached by the caller). */
  detail: (incident: TIncident) => Promise<TDetailedIncident>;
  /** Where the parts the service did not answer are named. */
  partial: TakedownAnalytics['partial'];
}

/** Runs `work` over `items`, at most `limit` at a time. */
export async function mapLimited<T, R>(
  items: T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  });
  await Promise.all(runners);
  return results;
}

const messageOf = (error: unknown) =>
  error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 300) : 'unknown error';

/** The client's reads, and how many details it asked for (taken from the budget). */
export async function readClient(
  request: ClientReadRequest,
): Promise<{ read: ClientReads; detailReads: number }> {
  const read: ClientReads = {
    clientId: request.clientId,
    clientName: null,
    incidents: [],
    attempts: null,
    details: new Map(),
    remainingCredits: 'unknown',
    waiting: [],
  };
  await readCredits(request, read);
  await readIncidents(request, read);
  await readAttempts(request, read);
  await readWaiting(request, read);
  const detailReads = await readDetails(request, read);
  return { read, detailReads };
}

async function readCredits(request: ClientReadRequest, read: ClientReads): Promise<void> {
  try {
    const usage = await request.client.usage.retrieve({}, { timeoutMs: 10_000 });
    read.clientName = usage.clientName;
    read.remainingCredits = usage.remainingCredits;
  } catch (error) {
    request.partial.push({
      clientId: request.clientId,
      part: 'credits',
      message: messageOf(error),
    });
  }
}

async function readIncidents(request: ClientReadRequest, read: ClientReads): Promise<void> {
  const { client, clientId, fromDate, limits, partial } = request;
  try {
    for await (const incident of client.incidents.list(
      { fromDate: fromDate.toISOString(), limit: 100 },
      { timeoutMs: 15_000 },
    )) {
      read.incidents.push(incident);
      if (read.incidents.length >= limits.incidentsPerClient) {
        partial.push({
          clientId,
          part: 'incidents',
          message: `only the newest ${limits.incidentsPerClient} incidents are counted`,
        });
        break;
      }
    }
  } catch (error) {
    partial.push({ clientId, part: 'incidents', message: messageOf(error) });
  }
}

async function readAttempts(request: ClientReadRequest, read: ClientReads): Promise<void> {
  const { client, clientId, fromDate, limits, partial } = request;
  try {
    const attempts: TTakedownAttempts[] = [];
    for await (const record of client.resolutions.list(
      { fromDate: fromDate.toISOString(), limit: 100 },
      { timeoutMs: 15_000 },
    )) {
      attempts.push(record);
      if (attempts.length >= limits.incidentsPerClient) break;
    }
    read.attempts = attempts;
  } catch (error) {
    partial.push({
      clientId,
      part: 'takedown attempts',
      message:
        error instanceof ResolutionsForbiddenError
          ? 'the service does not show takedown attempts for this client; the success rate counts current statuses'
          : messageOf(error),
    });
  }
}

async function readWaiting(request: ClientReadRequest, read: ClientReads): Promise<void> {
  const { client, clientId, limits, partial } = request;
  try {
    for await (const incident of client.incidents.list(
      { status: 'action_required', limit: 100 },
      { timeoutMs: 15_000 },
    )) {
      read.waiting.push(incident);
      if (read.waiting.length >= limits.waiting) break;
    }
  } catch (error) {
    partial.push({ clientId, part: 'waiting on the customer', message: messageOf(error) });
  }
}

/** The newest incidents' details within the budget: the number asked for. */
async function readDetails(request: ClientReadRequest, read: ClientReads): Promise<number> {
  const { clientId, limits, partial } = request;
  const wanted = read.incidents.slice(0, Math.max(0, request.detailBudget));
  if (wanted.length < read.incidents.length) {
    partial.push({
      clientId,
      part: 'registrar, hosting and blocklists',
      message: `read for the newest ${wanted.length} of ${read.incidents.length} incidents`,
    });
  }
  let failures = 0;
  let lastFailure = '';
  await mapLimited(wanted, limits.detailConcurrency, async (incident) => {
    try {
      read.details.set(incident.id, await request.detail(incident));
    } catch (error) {
      failures += 1;
      lastFailure = messageOf(error);
    }
  });
  if (failures > 0) {
    partial.push({
      clientId,
      part: 'registrar, hosting and blocklists',
      message: `${failures} of ${wanted.length} incidents could not be read (${lastFailure})`,
    });
  }
  return wanted.length;
}
