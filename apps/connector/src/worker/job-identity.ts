// What a sync job's data says about it, whatever its queue: its account, the request that enqueued
// it, and the ticket or incident it is about.
interface JobIdentity {
  accountId?: unknown;
  requestId?: unknown;
  body?: { ticketId?: unknown };
  event?: { data?: { incidentId?: unknown } };
}

export function describeJob(data: unknown): {
  accountId: string | null;
  requestId: string | null;
  ticketId: bigint | null;
  incidentId: string | null;
} {
  const job = (typeof data === 'object' && data !== null ? data : {}) as JobIdentity;
  const ticketId = job.body?.ticketId;
  const incidentId = job.event?.data?.incidentId;
  return {
    accountId: typeof job.accountId === 'string' ? job.accountId : null,
    requestId: typeof job.requestId === 'string' ? job.requestId : null,
    ticketId: typeof ticketId === 'number' ? BigInt(ticketId) : null,
    incidentId: typeof incidentId === 'string' ? incidentId : null,
  };
}
