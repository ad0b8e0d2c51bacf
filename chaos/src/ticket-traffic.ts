// The Zendesk side of the soak: ticket changes made in the Zendesk sandbox, so
// its own triggers send the connector signed webhooks the way Zendesk does: threat reports (the
// submit tag on a new ticket), public agent replies on linked tickets (forwarded as incident
// comments) and takedown request tags. A share of the deliveries is sent twice by the sandbox
// itself (same invocation, like Zendesk's at-least-once delivery). Afterwards the incident
// sandbox's own state is the judge: each reply exactly once among the incident's comments, one
// incident per reported threat, one takedown request in the incident's history per tag added.
// Injected permanent failures: reports whose Threat is no threat at all; each must end as one
// explaining note on its ticket (and one dead letter, which the soak checks), never as an incident.
import type { ChaosStack, InstalledAccount } from './stack';
import { controlCall as call, eventually, sandboxTicket } from './sandbox-access';

/** The tag the takedown trigger looks for (apps/connector/src/setup/ticket-tags.ts). */
const TAKEDOWN_TAG = 'incident_request_takedown';
/**
 * Changes to one ticket are not spaced: replies within the same second must each be applied (the
 * connector keys them on their signed body, which carries the latest comment's id beside the
 * whole-second updated_at; a7a63b3 keyed them on the unsigned invocation id).
 */
const SAME_TICKET_GAP_MS = 0;
/** What the incident sandbox writes into the history for each takedown request. */
const TAKEDOWN_HISTORY = 'Takedown requested by client';

export interface TrafficTicket {
  account: InstalledAccount;
  ticketId: number;
  incidentId: string;
}

interface SandboxIncident {
  id: string;
  ref: string;
  url?: string;
  history: { message: string }[];
  comments: { comment: string }[];
}

async function sandboxIncidents(stack: ChaosStack): Promise<SandboxIncident[]> {
  const raw = await call<{
    incidents?: SandboxIncident[];
    data?: { incidents: SandboxIncident[] };
  }>(`${stack.incidentUrl}/_sandbox/state`, 'GET');
  return raw.data?.incidents ?? raw.incidents ?? [];
}

export interface TicketTrafficFigures {
  webhooksSent: number;
  webhooksDuplicated: number;
  webhooksFailed: number;
  /**
   * Of those, deliveries refused only while PostgreSQL restarted: the connector answers 500 (the
   * account lookup fails) or 503 without Retry-After, neither of which Zendesk retries (a product
   * defect, fixed in 7bb1f3a; chaos/README.md). Tolerated if nothing ends up lost: a later change on the same
   * ticket sends a webhook that catches up.
   */
  webhooksRefusedDuringPostgresRestart: number;
  reports: number;
  /** Reports injected with an invalid Threat (permanent failures). */
  invalidReports: number;
  replies: number;
  takedownRequests: number;
  /** Replies missing from their incident's comments, reports without one incident, unapplied tags. */
  lost: number;
  /** Replies forwarded twice or more, threats reported twice, takedown requests applied twice. */
  duplicated: number;
  /** Of those, takedown requests applied twice (see chaos/README.md: a defect the soak found). */
  takedownsAppliedTwice: number;
  problems: string[];
}

export function createTicketTraffic(
  stack: ChaosStack,
  options: { random: () => number; duplicateRate: number; label: string },
) {
  const { random } = options;
  const replies = new Map<string, TrafficTicket>();
  const takedowns = new Map<TrafficTicket, number>();
  const reported: { account: InstalledAccount; ticketId: number; url: string }[] = [];
  const invalid: { account: InstalledAccount; ticketId: number; threat: string }[] = [];
  const accounts = new Set<InstalledAccount>();
  const lastChange = new Map<string, number>();
  const keyOf = (ticket: TrafficTicket) => `${ticket.account.subdomain}#${ticket.ticketId}`;
  const touch = (ticket: TrafficTicket) => lastChange.set(keyOf(ticket), Date.now());

  /** The next delivery of the account's webhook comes twice (the sandbox's Zendesk duplicate). */
  const maybeDuplicate = (account: InstalledAccount) => {
    if (random() >= options.duplicateRate) return;
    const record = stack.zendeskSandbox.state.account(account.subdomain);
    if (record) record.duplicateNextDeliveries += 1;
  };

  /** A new ticket with the submit tag and the given Threat, as an agent files a report. */
  const openSubmitTicket = async (
    account: InstalledAccount,
    ticket: { subject: string; body: string; threat: string },
  ): Promise<number> => {
    accounts.add(account);
    maybeDuplicate(account);
    const created = await call<{ ticket: { id: number } }>(
      `${stack.zendeskUrl}/_sandbox/accounts/${account.subdomain}/tickets`,
      'POST',
      {
        requester_id: account.seed.endUserId,
        subject: ticket.subject,
        body: ticket.body,
        tags: ['incident_submit'],
        custom_fields: [{ id: account.seed.threatFieldId, value: ticket.threat }],
      },
    );
    return created.ticket.id;
  };

  return {
    /** The tickets that may be changed now (their last change more than SAME_TICKET_GAP_MS ago). */
    ready(tickets: TrafficTicket[]): TrafficTicket[] {
      const now = Date.now();
      return tickets.filter((t) => now - (lastChange.get(keyOf(t)) ?? 0) >= SAME_TICKET_GAP_MS);
    },

    /** Opens a ticket carrying the submit tag and a Threat; the report trigger sends it. */
    async report(account: InstalledAccount, index: number): Promise<void> {
      const url = `https://soak-report-${options.label}-${index}.example/verify`;
      const ticketId = await openSubmitTicket(account, {
        subject: `Soak report ${index}`,
        body: 'Please take this page down.',
        threat: url,
      });
      reported.push({ account, ticketId, url });
    },

    /**
     * An injected permanent failure: a ticket with the submit tag whose Threat is no threat. The
     * connector must explain it on the ticket, remove the tag and dead-letter it, once.
     */
    async reportInvalid(account: InstalledAccount, index: number): Promise<number> {
      const threat = `call the number on the letter (${options.label} ${index})`;
      const ticketId = await openSubmitTicket(account, {
        subject: `Soak report without a threat ${index}`,
        body: 'Something is wrong, please check.',
        threat,
      });
      invalid.push({ account, ticketId, threat });
      return ticketId;
    },

    /** The tickets of reportInvalid. */
    invalidReports(): readonly { account: InstalledAccount; ticketId: number }[] {
      return invalid;
    },

    /** Waits until every reported ticket is linked; returns them with their incidents. */
    async reportedTickets(timeoutMs: number): Promise<TrafficTicket[]> {
      const linked: TrafficTicket[] = [];
      for (const entry of reported) {
        const incidentId = await eventually(
          `ticket ${entry.account.subdomain}#${entry.ticketId} linked by its report`,
          async () => {
            const current = await sandboxTicket(stack, entry.account.subdomain, entry.ticketId);
            if (!current.ticket.tags.includes('incident_linked')) return undefined;
            const incident = (await sandboxIncidents(stack)).find((i) => i.url === entry.url);
            return incident?.id;
          },
          timeoutMs,
        );
        linked.push({ account: entry.account, ticketId: entry.ticketId, incidentId });
      }
      return linked;
    },

    /** A public agent reply: the forward-comment trigger sends it. */
    async reply(ticket: TrafficTicket, step: number): Promise<void> {
      accounts.add(ticket.account);
      const body = `Soak reply ${options.label}-${step} on ticket ${ticket.ticketId}`;
      maybeDuplicate(ticket.account);
      await call(
        `${stack.zendeskUrl}/_sandbox/accounts/${ticket.account.subdomain}/tickets/${ticket.ticketId}/comments`,
        'POST',
        { author_id: ticket.account.agent.id, body, public: true },
      );
      touch(ticket);
      replies.set(body, ticket);
    },

    /**
     * Adds the takedown request tag as the agent would, only when it is not already there (adding a
     * present tag is no new request). Returns false when it was there.
     */
    requestTakedown(ticket: TrafficTicket): boolean {
      accounts.add(ticket.account);
      const sandbox = stack.zendeskSandbox;
      const record = sandbox.state.account(ticket.account.subdomain)!;
      if (sandbox.tickets.get(record, ticket.ticketId).tags.includes(TAKEDOWN_TAG)) return false;
      maybeDuplicate(ticket.account);
      const agent = record.users.get(ticket.account.agent.id)!;
      sandbox.tickets.update(
        record,
        ticket.ticketId,
        { additional_tags: [TAKEDOWN_TAG] },
        agent,
        'web',
      );
      touch(ticket);
      takedowns.set(ticket, (takedowns.get(ticket) ?? 0) + 1);
      return true;
    },

    /** Every delivery of the connector's Zendesk webhook has settled. */
    async settled(): Promise<void> {
      await stack.zendeskSandbox.webhooksIdle();
    },

    /** Against the sandboxes' own state, after the queue drained. */
    async check(
      postgresRestarts: { from: number; to: number }[] = [],
    ): Promise<TicketTrafficFigures> {
      const incidents = await sandboxIncidents(stack);
      const byId = new Map(incidents.map((i) => [i.id, i]));
      const problems: string[] = [];
      let lost = 0;
      let duplicated = 0;
      let takedownsAppliedTwice = 0;

      for (const [body, ticket] of replies) {
        const n = byId.get(ticket.incidentId)?.comments.filter((c) => c.comment === body).length;
        if (!n) {
          lost += 1;
          problems.push(`reply not forwarded: ${body}`);
        } else if (n > 1) {
          duplicated += n - 1;
          problems.push(`reply forwarded ${n} times: ${body}`);
        }
      }
      for (const entry of reported) {
        const n = incidents.filter((i) => i.url === entry.url).length;
        if (n === 0) {
          lost += 1;
          problems.push(`threat not reported: ${entry.url}`);
        } else if (n > 1) {
          duplicated += n - 1;
          problems.push(`threat reported ${n} times: ${entry.url}`);
        }
      }
      for (const [ticket, requests] of takedowns) {
        const incident = byId.get(ticket.incidentId);
        const applied = incident?.history.filter((h) => h.message === TAKEDOWN_HISTORY).length ?? 0;
        const current = await sandboxTicket(stack, ticket.account.subdomain, ticket.ticketId);
        if (applied < requests || current.ticket.tags.includes(TAKEDOWN_TAG)) {
          lost += requests - applied;
          problems.push(
            `ticket ${ticket.account.subdomain}#${ticket.ticketId}: ${requests} takedown request(s), ${applied} applied, tag ${current.ticket.tags.includes(TAKEDOWN_TAG) ? 'still there' : 'removed'}`,
          );
        } else if (applied > requests) {
          duplicated += applied - requests;
          takedownsAppliedTwice += applied - requests;
          problems.push(
            `ticket ${ticket.account.subdomain}#${ticket.ticketId}: ${requests} takedown request(s) applied ${applied} times`,
          );
        }
      }

      for (const entry of invalid) {
        const current = await sandboxTicket(stack, entry.account.subdomain, entry.ticketId);
        const notes = current.comments.filter(
          (c) => !c.public && c.body.includes('Not reported to the incident service'),
        ).length;
        const reportedAnyway = incidents.filter((i) => i.url === entry.threat).length;
        if (notes === 0 || current.ticket.tags.includes('incident_submit')) {
          lost += 1;
          problems.push(
            `invalid report ${entry.account.subdomain}#${entry.ticketId}: ${notes} note(s), tag ${current.ticket.tags.includes('incident_submit') ? 'still there' : 'removed'}`,
          );
        }
        if (notes > 1 || reportedAnyway > 0) {
          duplicated += Math.max(0, notes - 1) + reportedAnyway;
          problems.push(
            `invalid report ${entry.account.subdomain}#${entry.ticketId}: ${notes} notes, reported ${reportedAnyway} times`,
          );
        }
      }

      const deliveries = [...accounts].flatMap(
        (account) => stack.zendeskSandbox.state.account(account.subdomain)?.deliveries ?? [],
      );
      const failed = deliveries.filter((d) => d.state !== 'succeeded');
      // Attempt times have whole seconds: a window widened by a second each side, plus the
      // connector's reconnect after the server is back.
      const duringRestart = (at: string) =>
        postgresRestarts.some(
          (w) => Date.parse(at) >= w.from - 1_000 && Date.parse(at) <= w.to + 5_000,
        );
      const refused = failed.filter(
        (d) => d.attempts.length > 0 && d.attempts.every((a) => duringRestart(a.at)),
      );
      for (const d of failed.filter((f) => !refused.includes(f)).slice(0, 5))
        problems.push(
          `webhook delivery ${d.invocation_id} (ticket ${d.ticket_id}) ${d.state}: ${JSON.stringify(d.attempts.slice(-1))}`,
        );
      return {
        webhooksSent: deliveries.length,
        webhooksDuplicated: deliveries.filter((d) => d.duplicate).length,
        webhooksFailed: failed.length - refused.length,
        webhooksRefusedDuringPostgresRestart: refused.length,
        reports: reported.length,
        invalidReports: invalid.length,
        replies: replies.size,
        takedownRequests: [...takedowns.values()].reduce((sum, n) => sum + n, 0),
        lost,
        duplicated,
        takedownsAppliedTwice,
        problems: problems.slice(0, 20),
      };
    },
  };
}
