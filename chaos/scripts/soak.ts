// A soak of the composed connector under faults, sized by
// environment variables. Incidents linked to tickets in three accounts (one with sub-clients) are
// moved through random statuses in the incident sandbox, which delivers the real signed events;
// meanwhile Zendesk answers 5% of requests 5xx and drops 1% of connections, expires the access
// token once, answers 401 and rate-limits in bursts (429 with Retry-After), the incident service
// answers 5% of requests 503 and some slowly, delivered events are replayed out of order, and the
// connector is restarted. Afterwards, against the sandboxes' own
// state: every event's note on its ticket exactly once, each Status field equal to the incident's
// newest status, the queue drained. With SOAK_KILLS the connector runs as a real process that is
// SIGKILLed and started again. Zendesk-side changes (src/ticket-traffic.ts) send ticket webhooks through
// the sandbox's triggers. Permanent failures are injected too (reports whose Threat is no threat,
// a linked ticket closed while its incident still moves): each must end as dead letters of its own,
// and nothing else may.
// On PostgreSQL the soak runs on a private cluster it restarts mid-run (src/private-postgres.ts).
//
//   SOAK_BACKEND=pglite|postgres  SOAK_TICKETS=20  SOAK_ADVANCES=300  SOAK_DUPLICATE_RATE=0.1
//   SOAK_RESTARTS=2  SOAK_KILLS=0  SOAK_FAULT_RATE=0.1  SOAK_PACE_MS=0  SOAK_SEED=20261121
//   SOAK_INVALID_REPORTS=3  SOAK_CLOSED_TICKETS=1  SOAK_ZENDESK_5XX_RATE=0.05
//   SOAK_ZENDESK_DROP_RATE=0.01  SOAK_INCIDENT_5XX_RATE=0.05
//   SOAK_STATUS_OMIT_RATE=0.2  SOAK_DELIVERY_JITTER_MS=300  SOAK_ATTEMPT_LAG_MS=1000
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { signWebhook } from '@incident-desk/incident-api';
import {
  freePort,
  startConnectorProcess,
  type ConnectorProcess,
} from '@incident-desk/connector/test/support/connector-process';
import { INCIDENT_STATUSES } from '@incident-desk/incident-api/statuses';
import { MiB, peakRssSampler, processRssSampler } from '../src/memory';
import { findLogLeaks } from '../src/log-leaks';
import { startPrivatePostgres, type PrivatePostgres } from '../src/private-postgres';
import { REPORT_DIR, writeReportPart } from '../src/report-parts';
import {
  controlCall as call,
  eventually,
  sandboxTicket,
  seedIncident,
} from '../src/sandbox-access';
import {
  startChaosStack,
  type Backend,
  type ChaosStack,
  type InstalledAccount,
} from '../src/stack';
import { waitForQuiet } from '../src/quiet';
import { diagnoseTickets, type SuspectTicket } from '../src/soak-diagnosis';
import { installStandingFaults } from '../src/standing-faults';
import { matchDeadLetters, type InjectedPermanentFailures } from '../src/dead-letters';
import { createTicketTraffic, type TrafficTicket } from '../src/ticket-traffic';
import { eventRefsOfAudit } from '@incident-desk/connector/src/sync/ticket-writes/write-metadata';
import { statusOptionValue } from '@incident-desk/connector/src/setup/status-field';

const backend = (process.env.SOAK_BACKEND ?? 'pglite') as Backend;
const TICKETS = Number(process.env.SOAK_TICKETS ?? 20);
const ADVANCES = Number(process.env.SOAK_ADVANCES ?? 300);
const DUPLICATE_RATE = Number(process.env.SOAK_DUPLICATE_RATE ?? 0.1);
const RESTARTS = Number(process.env.SOAK_RESTARTS ?? 2);
/** SIGKILLs of the connector; above 0 the connector runs as a child process (src/main.ts). */
const KILLS = Number(process.env.SOAK_KILLS ?? 0);
/** Pause between status moves; 0 moves as fast as the sandbox answers (a backlog builds). */
const PACE_MS = Number(process.env.SOAK_PACE_MS ?? 0);
/** Chance, after each status move, of one burst (401, 429 burst, incident-service latency). */
const FAULT_RATE = Number(process.env.SOAK_FAULT_RATE ?? 0.05);
/** Zendesk-side changes whose triggers send ticket webhooks (reports, replies, takedown tags). */
const TICKET_WEBHOOKS = Number(process.env.SOAK_TICKET_WEBHOOKS ?? 100);
/** Tickets reported through the submit tag; replies and takedown tags go to these. */
const REPORTS = Number(process.env.SOAK_REPORTS ?? 4);
/** Standing faults, drawn per request (5% 5xx and 1% dropped connections at Zendesk, 5% 5xx at the incident service). */
const FAULT_RATES = {
  zendesk5xx: Number(process.env.SOAK_ZENDESK_5XX_RATE ?? 0.05),
  zendeskDrop: Number(process.env.SOAK_ZENDESK_DROP_RATE ?? 0.01),
  incident5xx: Number(process.env.SOAK_INCIDENT_5XX_RATE ?? 0.05),
};
/** Injected permanent failure: reports from Zendesk whose Threat is no threat. */
const INVALID_REPORTS = Number(process.env.SOAK_INVALID_REPORTS ?? 3);
/** Injected permanent failure: linked tickets closed in Zendesk while their incidents still move. */
const CLOSED_TICKETS = Number(process.env.SOAK_CLOSED_TICKETS ?? 1);
/**
 * PostgreSQL backend: restarts of a private cluster started for the soak (the machine's shared
 * server is never touched); 0 runs on DATABASE_URL as given.
 */
const PG_RESTARTS = backend === 'postgres' ? Number(process.env.SOAK_PG_RESTARTS ?? 1) : 0;
/** How long each restart leaves the connector with no database: jobs in flight meet the outage. */
const PG_DOWN_MS = Number(process.env.SOAK_PG_DOWN_MS ?? 3_000);
/**
 * The incident sandbox's fidelity behaviours (its README): status_changed without `status`
 * sometimes, deliveries out of emission order, a new takedown attempt visible only after a lag.
 */
const SANDBOX_FIDELITY = {
  statusOmitRate: Number(process.env.SOAK_STATUS_OMIT_RATE ?? 0.2),
  deliveryJitterMs: Number(process.env.SOAK_DELIVERY_JITTER_MS ?? 300),
  attemptVisibilityLagMs: Number(process.env.SOAK_ATTEMPT_LAG_MS ?? 1000),
};
let seed = Number(process.env.SOAK_SEED ?? 20261121);

/** mulberry32: a small seeded generator, so a run can be repeated. */
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const say = (line: string) =>
  process.stdout.write(`soak: ${new Date().toISOString().slice(11, 23)} ${line}\n`);

interface SoakTicket {
  account: InstalledAccount;
  ticketId: number;
  incidentId: string;
}

interface Delivery {
  id: string;
  subscriptionId: string;
  incidentId: string | null;
  /** The envelope, parsed by the control API. */
  body: { id: string };
  state: 'pending' | 'delivered' | 'failed';
  event: string;
  attempts: unknown[];
}

const faults = new Map<string, number>();
const injected = (kind: string) => faults.set(kind, (faults.get(kind) ?? 0) + 1);

async function injectFault(stack: ChaosStack): Promise<void> {
  const zendesk = (rule: Record<string, unknown>) =>
    call(`${stack.zendeskUrl}/_sandbox/faults`, 'POST', rule);
  const incident = (rule: Record<string, unknown>) =>
    call(`${stack.incidentUrl}/_sandbox/faults`, 'POST', rule);
  // The 5xx answers and dropped connections are standing rates (src/standing-faults.ts).
  const kind = pick(['zendesk_401', 'zendesk_429_burst', 'incident_latency'] as const);
  switch (kind) {
    case 'zendesk_401':
      await zendesk({ path: '/api/v2/*', kind: 'unauthorized', times: 1 });
      break;
    case 'zendesk_429_burst': {
      const subdomain = pick(['demo', 'other', 'third']);
      await call(`${stack.zendeskUrl}/_sandbox/accounts/${subdomain}/rate-limit`, 'PUT', {
        requests_per_minute: 3,
        window_ms: 2_000,
      });
      setTimeout(() => {
        void call(`${stack.zendeskUrl}/_sandbox/accounts/${subdomain}/rate-limit`, 'PUT', {
          requests_per_minute: 700,
        }).catch(() => undefined);
      }, 2_000);
      break;
    }
    case 'incident_latency':
      await incident({ path: '/v1/*', kind: 'latency', latencyMs: 400, times: 5 });
      break;
  }
  injected(kind);
}

/** The account's access tokens reach their expiry (the connector's stored expiry is still ahead). */
function expireAccessTokens(stack: ChaosStack, subdomain: string): number {
  const sandbox = stack.zendeskSandbox;
  const now = sandbox.state.now();
  const live = sandbox.state.tokens.filter(
    (t) => t.subdomain === subdomain && !t.revoked && (t.expires_at === null || t.expires_at > now),
  );
  for (const token of live) sandbox.tokens.expire(token, 'access');
  return live.length;
}

/** An agent closes the ticket: Zendesk then refuses every update of it (422 ClosedPreventsUpdate). */
function closeTicket(stack: ChaosStack, ticket: SoakTicket): void {
  const sandbox = stack.zendeskSandbox;
  const record = sandbox.state.account(ticket.account.subdomain)!;
  const agent = record.users.get(ticket.account.agent.id)!;
  sandbox.tickets.update(record, ticket.ticketId, { status: 'closed' }, agent, 'web');
}

const offered = new Set<string>();

/** Sends a share of the delivered events again, shuffled, re-signed as the service's retry would be. */
async function replayDuplicates(
  stack: ChaosStack,
  rate: number,
): Promise<{ sent: number; duplicate: number }> {
  type Webhooks = { webhooks: { id: string; url: string; secret: string }[] };
  const raw = (await call(`${stack.incidentUrl}/_sandbox/state`, 'GET')) as Webhooks & {
    data?: Webhooks;
  };
  const state = raw.data ?? raw;
  // Each delivered event is considered once, so about `rate` of all events come twice.
  const fresh = (await deliveriesOf(stack, '?state=delivered')).filter((d) => !offered.has(d.id));
  for (const delivery of fresh) offered.add(delivery.id);
  const chosen = fresh.filter(() => random() < rate).sort(() => random() - 0.5);
  let duplicate = 0;
  for (const delivery of chosen) {
    const webhook = state.webhooks.find((w) => w.id === delivery.subscriptionId);
    if (!webhook) continue;
    const body = JSON.stringify(delivery.body);
    const response = await fetch(webhook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...signWebhook({ secret: webhook.secret, body }),
      },
      body,
    });
    const answer = (await response.json().catch(() => ({}))) as { status?: string };
    if (answer.status === 'duplicate') duplicate += 1;
  }
  return { sent: chosen.length, duplicate };
}

async function deliveriesOf(stack: ChaosStack, query = ''): Promise<Delivery[]> {
  return (
    (await call(`${stack.incidentUrl}/_sandbox/deliveries${query}`, 'GET')) as { data: Delivery[] }
  ).data;
}

/** The incident sandbox's retry slots after a failed delivery (the service's own are not shown). */
const INCIDENT_WEBHOOK_RETRIES_MS = [250, 1_000, 2_000, 5_000, 10_000, 20_000, 40_000, 80_000];

/** Every incident webhook delivery attempted to the end, within `withinMs`. */
async function deliveriesSettled(stack: ChaosStack, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0)
      throw new Error(`incident webhook deliveries still pending after ${withinMs} ms`);
    // the sandbox holds one wait for a minute at most
    const response = await fetch(
      `${stack.incidentUrl}/_sandbox/deliveries/wait?timeoutMs=${Math.min(left, 60_000)}`,
      { method: 'POST' },
    );
    if (response.ok) return;
    if (response.status !== 504)
      throw new Error(`deliveries/wait: ${response.status} ${await response.text()}`);
  }
}

async function queueBacklog(stack: ChaosStack): Promise<number> {
  const rows = await stack.connector.db.prisma.$queryRawUnsafe<{ n: unknown }[]>(
    `SELECT count(*) AS n FROM "${stack.schemas.boss}".job WHERE name IN ('incident-event','ticket-event') AND state IN ('created','retry','active')`,
  );
  // changes the writer has still to send count as backlog too
  const waiting = await stack.connector.db.prisma.pendingTicketChange.count({
    where: { writtenAt: null, failedReason: null },
  });
  return Number(rows[0]?.n ?? 0) + waiting;
}

async function main() {
  const started = Date.now();
  const sampler = peakRssSampler();
  const childRss = processRssSampler();
  let privatePg: PrivatePostgres | null = null;
  if (PG_RESTARTS > 0) {
    privatePg = startPrivatePostgres(await freePort());
    process.env.DATABASE_URL = privatePg.url;
    say(`private PostgreSQL cluster at ${privatePg.url}`);
  }
  const stack = await startChaosStack(backend, {
    webhookDelayMs: 20,
    webhookRetryDelaysMs: INCIDENT_WEBHOOK_RETRIES_MS,
    // A job a SIGKILLed process held runs again after this; the queues are created with it. Not
    // shorter: a job slowed by the injected faults (429 bursts, latency, 5xx retries) on a loaded
    // machine must not overrun it, or its retry would run beside it (production's default is 300 s).
    jobTimeoutSeconds: 30,
    thirdAccount: true,
    // Retry slots for Zendesk's 503 retries (Retry-After 1-2 s): enough to ride out a restart.
    zendeskWebhookRetries: Array.from({ length: 40 }, () => 50),
  });
  /** Every connector process's output, kept for report/soak-<backend>-connector.log. */
  const children: ConnectorProcess[] = [];
  try {
    await waitForQuiet(stack);
    await call(`${stack.incidentUrl}/_sandbox/settings`, 'PATCH', SANDBOX_FIDELITY);
    say(
      `${backend}: stack up in ${Date.now() - started} ms; ${TICKETS} tickets, ${ADVANCES} advances`,
    );

    const tickets: SoakTicket[] = [];
    // Three accounts: demo (a parent organisation with two sub-clients), other and third.
    const accounts = [stack.a, stack.b, stack.c!];
    for (let i = 0; i < TICKETS; i++) {
      const account = accounts[i % accounts.length]!;
      const clientId =
        account === stack.a
          ? pick(['cl_demo_parent', 'cl_demo_retail', 'cl_demo_bank'])
          : account.incidentClientId;
      const incident = await seedIncident(stack, {
        clientId,
        url: `https://soak-${backend}-${i}.example/login`,
        status: 'pending_review',
        emitEvents: false,
      });
      const created = (await call(
        `${stack.zendeskUrl}/_sandbox/accounts/${account.subdomain}/tickets`,
        'POST',
        {
          requester_id: account.seed.endUserId,
          subject: `Soak ticket ${i}`,
          body: 'Reported phishing page.',
          custom_fields: [{ id: account.seed.incidentFieldId, value: incident.id }],
        },
      )) as { ticket: { id: number } };
      tickets.push({ account, ticketId: created.ticket.id, incidentId: incident.id });
    }

    // Threats reported from Zendesk through the submit tag; once linked they join the pool.
    const traffic = createTicketTraffic(stack, {
      random,
      duplicateRate: DUPLICATE_RATE,
      label: backend,
    });
    for (let i = 0; i < REPORTS; i++) await traffic.report(accounts[i % accounts.length]!, i);
    const reportedTickets: TrafficTicket[] = await traffic.reportedTickets(120_000);
    tickets.push(...reportedTickets);
    say(`${reportedTickets.length} threats reported from Zendesk and linked`);
    const ticketOps = Math.max(0, TICKET_WEBHOOKS - REPORTS);
    const ticketOpsPerStep = ticketOps / Math.max(1, ADVANCES);
    let ticketOpsDue = 0;
    let ticketOpsDone = 0;
    /** One reply (four in five) or takedown request on a reported ticket not changed for a second. */
    const ticketOp = async (step: number): Promise<boolean> => {
      const ready = traffic.ready(reportedTickets);
      if (ready.length === 0) return false;
      const target = pick(ready);
      if (random() >= 0.2 || !traffic.requestTakedown(target)) await traffic.reply(target, step);
      ticketOpsDone += 1;
      return true;
    };

    // The sandbox keeps only its latest 2,000 deliveries: collect them as the run goes, so no event
    // escapes the check (a delivery settles within its retries, long before it is dropped).
    const seen = new Map<string, Delivery>();
    const collect = async () => {
      for (const delivery of await deliveriesOf(stack)) seen.set(delivery.id, delivery);
    };
    // With kills, the connector is the real process: the stack's address forwards to it, and a
    // SIGKILL or a SIGTERM is followed by a new process on the same database.
    let child: ConnectorProcess | null = null;
    const port = KILLS > 0 ? await freePort() : 0;
    const startChild = async () => {
      const { CONNECTOR_PORT: _port, CONNECTOR_PUBLIC_URL: _public, ...env } = stack.env;
      child = await startConnectorProcess({
        port,
        zendeskUrl: stack.zendeskUrl,
        incidentUrl: stack.incidentUrl,
        database: { backend, env: {}, drop: async () => undefined },
        secretsKeys: stack.env.SECRETS_KEYS!,
        demo: false,
        publicUrl: stack.url,
        extraEnv: env,
      });
      childRss.watch(child.pid);
      children.push(child);
    };
    if (KILLS > 0) {
      await stack.handOver(`http://127.0.0.1:${port}`);
      await startChild();
      say(`connector process ${child!.pid} on port ${port}`);
    }
    const killAt = new Set(
      Array.from({ length: KILLS }, (_, k) => Math.floor(((k + 0.3) * ADVANCES) / KILLS)),
    );
    let kills = 0;
    const restartAt = new Set(
      Array.from({ length: RESTARTS }, (_, k) => Math.floor(((k + 1) * ADVANCES) / (RESTARTS + 1))),
    );
    let restarts = 0;
    const pgRestartAt = new Set(
      Array.from({ length: PG_RESTARTS }, (_, k) =>
        Math.floor(((k + 0.6) * ADVANCES) / PG_RESTARTS),
      ),
    );
    let pgRestarts = 0;
    const pgRestartWindows: { from: number; to: number }[] = [];
    // Injected permanent failures, spread over the run; the tickets closed are linked ones made
    // here (not reported from Zendesk), so the replies and requests of the traffic go on.
    const invalidReportAt = new Set(
      Array.from({ length: INVALID_REPORTS }, (_, k) =>
        Math.floor(((k + 0.5) * ADVANCES) / INVALID_REPORTS),
      ),
    );
    // A closing is due from its step on, and done once a ticket carries a connector note: one
    // never linked yet would only be passed over for a new ticket (recovery skips closed ones).
    const closeFrom = Array.from({ length: Math.min(CLOSED_TICKETS, TICKETS) }, (_, k) =>
      Math.floor(((k + 0.75) * ADVANCES) / (CLOSED_TICKETS + 0.25)),
    );
    const closedTickets = new Set<SoakTicket>();
    const linkedSeededTicket = async (): Promise<SoakTicket | undefined> => {
      for (let i = 0; i < TICKETS; i++) {
        const candidate = tickets[(i * 7 + 1) % TICKETS]!;
        if (closedTickets.has(candidate)) continue;
        const current = await sandboxTicket(stack, candidate.account.subdomain, candidate.ticketId);
        if (current.audits.some((audit) => eventRefsOfAudit(audit).length > 0)) return candidate;
      }
      return undefined;
    };
    const injectedPermanent: InjectedPermanentFailures = {
      invalidReports: [],
      closedTickets: [],
      sigkills: [],
    };
    let replays = { sent: 0, duplicate: 0 };
    const standingFaults = await installStandingFaults(
      stack,
      FAULT_RATES,
      accounts.map((a) => a.subdomain),
    );
    const expireTokenAt = Math.floor(ADVANCES / 2);
    /** The tokens there were when the access tokens expired; null before. */
    let tokensBeforeExpiry: Set<number> | null = null;
    for (let step = 0; step < ADVANCES; step++) {
      const ticket = pick(tickets);
      await call(`${stack.incidentUrl}/_sandbox/incidents/${ticket.incidentId}/advance`, 'POST', {
        status: pick(INCIDENT_STATUSES),
        message: `Soak step ${step}`,
        force: true,
      });
      ticketOpsDue += ticketOpsPerStep;
      // Ops due while every ticket was changed within the last second wait for a later step.
      for (; ticketOpsDue >= 1 && (await ticketOp(step)); ticketOpsDue -= 1);
      if (random() < FAULT_RATE) await injectFault(stack);
      if (step === expireTokenAt) {
        const expired = expireAccessTokens(stack, stack.a.subdomain);
        if (expired > 0) {
          injected('zendesk_access_token_expired');
          tokensBeforeExpiry = new Set(stack.zendeskSandbox.state.tokens.map((t) => t.id));
        }
        say(`expired ${expired} access token(s) of ${stack.a.subdomain} at step ${step}`);
      }
      if (invalidReportAt.has(step)) {
        const account = accounts[step % accounts.length]!;
        const ticketId = await traffic.reportInvalid(account, step);
        injectedPermanent.invalidReports.push({ accountId: account.accountId, ticketId });
        injected('permanent_invalid_threat');
      }
      const closing =
        closeFrom.filter((from) => from <= step).length > closedTickets.size
          ? await linkedSeededTicket()
          : undefined;
      if (closing) {
        closeTicket(stack, closing);
        closedTickets.add(closing);
        injectedPermanent.closedTickets.push({
          accountId: closing.account.accountId,
          ticketId: closing.ticketId,
          incidentId: closing.incidentId,
          closedAt: Date.now(),
        });
        injected('permanent_ticket_closed');
        // at least one event after the close, whatever the random picks do
        await call(
          `${stack.incidentUrl}/_sandbox/incidents/${closing.incidentId}/advance`,
          'POST',
          {
            status: pick(INCIDENT_STATUSES),
            message: `Soak step ${step}, after the ticket was closed`,
            force: true,
          },
        );
        say(`closed ticket ${closing.account.subdomain}#${closing.ticketId} at step ${step}`);
      }
      if (step % 50 === 0) await collect();
      if (PACE_MS > 0) await new Promise((resolve) => setTimeout(resolve, PACE_MS));
      if (restartAt.has(step)) {
        if (child) {
          await (child as ConnectorProcess).stop();
          await startChild();
        } else {
          await stack.restart();
        }
        restarts += 1;
        say(`restarted the connector at step ${step}`);
      }
      if (privatePg && pgRestartAt.has(step)) {
        const begun = Date.now();
        await privatePg.restart(PG_DOWN_MS);
        pgRestartWindows.push({ from: begun, to: Date.now() });
        pgRestarts += 1;
        say(
          `restarted PostgreSQL (stopped -m fast, ${PG_DOWN_MS} ms down) at step ${step}, back after ${Date.now() - begun} ms`,
        );
      }
      if (child && killAt.has(step)) {
        injectedPermanent.sigkills.push(Date.now());
        await (child as ConnectorProcess).kill();
        await startChild();
        kills += 1;
        say(
          `SIGKILLed the connector at step ${step}, started process ${(child as ConnectorProcess).pid}`,
        );
      }
      if (step > 0 && step % 100 === 0) {
        const r = await replayDuplicates(stack, DUPLICATE_RATE);
        replays = { sent: replays.sent + r.sent, duplicate: replays.duplicate + r.duplicate };
      }
    }
    // The ticket changes still due, as the tickets become free again.
    while (ticketOpsDone < ticketOps && reportedTickets.length > 0) {
      if (!(await ticketOp(ADVANCES + ticketOpsDone)))
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const last = await replayDuplicates(stack, DUPLICATE_RATE);
    replays = { sent: replays.sent + last.sent, duplicate: replays.duplicate + last.duplicate };

    // The faults stand through the drain; their hits are read once everything has settled.
    // Drain: every delivery attempted, the queue empty for two seconds. A drain that does not
    // finish fails the run, after the checks have said what was left.
    const undrained: string[] = [];
    // A delivery refused through both the connector's restart and PostgreSQL's can be in a late
    // retry slot: wait out the whole schedule.
    await deliveriesSettled(
      stack,
      INCIDENT_WEBHOOK_RETRIES_MS.reduce((a, b) => a + b, 60_000),
    ).catch((error: unknown) => undrained.push(String(error)));
    await traffic.settled();
    if (child) {
      await (child as ConnectorProcess)
        .queuesIdle(300_000)
        .catch((error: unknown) => undrained.push(`connector process: ${String(error)}`));
      await (child as ConnectorProcess).stop();
      await stack.takeBack();
    }
    let emptySince = 0;
    await eventually(
      'the queue drained',
      async () => {
        if ((await queueBacklog(stack)) > 0) {
          emptySince = 0;
          return undefined;
        }
        emptySince ||= Date.now();
        return Date.now() - emptySince >= 2_000 ? true : undefined;
      },
      300_000,
    ).catch((error: unknown) => undrained.push(String(error)));
    for (const line of undrained) say(`not drained: ${line}`);

    // Check against the sandboxes' own state.
    await collect();
    const letters = await stack.connector.db.prisma.syncFailure.findMany({
      orderBy: { createdAt: 'asc' },
    });
    const leftSending = await stack.connector.db.prisma.incidentActionRequest.findMany({
      where: { state: 'sending' },
      select: { accountId: true, receiptId: true, createdAt: true },
    });
    // A closed ticket's later notes go to the follow-up ticket the writer opened for it.
    const followUps = new Map<string, number>();
    for (const closed of injectedPermanent.closedTickets) {
      const link = await stack.connector.db.prisma.incidentLink.findFirst({
        where: { accountId: closed.accountId, incidentId: closed.incidentId },
      });
      if (link && Number(link.ticketId) !== closed.ticketId)
        followUps.set(closed.incidentId, Number(link.ticketId));
    }
    const deadLetters = matchDeadLetters(letters, injectedPermanent, leftSending, followUps);
    for (const line of deadLetters.unexpected) say(`unexpected dead letter: ${line}`);
    for (const line of deadLetters.missing) say(`missing dead letter: ${line}`);
    const deliveries = [...seen.values()];
    let expected = 0;
    let lost = 0;
    let duplicated = 0;
    let statusMismatches = 0;
    const lostRefs: string[] = [];
    const suspects: SuspectTicket[] = [];
    const suspect = (ticket: SoakTicket, why: string, notes?: unknown[], lost?: string[]) =>
      suspects.push({
        accountId: ticket.account.accountId,
        ticketId: ticket.ticketId,
        incidentId: ticket.incidentId,
        why,
        ...(notes ? { notes } : {}),
        ...(lost ? { lostRefs: lost } : {}),
      });
    for (const ticket of tickets) {
      const events = deliveries.filter(
        (d) =>
          d.incidentId === ticket.incidentId &&
          d.event !== 'incident.created' &&
          d.event !== 'webhook.test',
      );
      // No note, by the contract (Events rule 4): the history echo of a reply the connector
      // forwarded, and the report's own confirmation on a ticket that reported its threat. An
      // event that came without its message is judged by the entry the incident sandbox added
      // at its time (the event's timestamp is the entry's).
      const record = (await call(
        `${stack.incidentUrl}/_sandbox/incidents/${ticket.incidentId}`,
        'GET',
      )) as {
        status?: string;
        data?: { status?: string };
        history?: { timestamp: string; message: string }[];
      };
      const entryAt = (d: Delivery) => {
        const at = (d.body as { timestamp?: string }).timestamp;
        return at === undefined
          ? undefined
          : record.history?.find((entry) => entry.timestamp === at)?.message;
      };
      const isEcho = (d: Delivery) => {
        const text = JSON.stringify(d.body);
        const entry =
          d.event === 'incident.history_created' && !text.includes('"historyEntry"')
            ? JSON.stringify({ message: entryAt(d) ?? '' })
            : '';
        const says = (message: string) => text.includes(message) || entry.includes(message);
        return (
          says('"message":"Comment: Soak reply ') ||
          says('"message":"Takedown requested by client"') ||
          (reportedTickets.includes(ticket) && says('"message":"Incident reported for'))
        );
      };
      const echoRefs = new Set(events.filter(isEcho).map((d) => d.body.id));
      const noted = events.filter((d) => !isEcho(d));
      const refs = noted.map((d) => d.body.id);
      const current = await sandboxTicket(stack, ticket.account.subdomain, ticket.ticketId);
      const followUpId = followUps.get(ticket.incidentId);
      const followUp =
        followUpId === undefined
          ? undefined
          : await sandboxTicket(stack, ticket.account.subdomain, followUpId);
      // each connector write names the events it applied in its audit's metadata
      const counts = new Map<string, number>();
      for (const audit of [...current.audits, ...(followUp?.audits ?? [])]) {
        for (const ref of eventRefsOfAudit(audit)) counts.set(ref, (counts.get(ref) ?? 0) + 1);
      }
      // A takedown update that found nothing new the ticket had not been told adds no note: the
      // connector keeps its change (no entry), written without a ticket update when nothing else
      // waited. Such an event is accounted for by that row; on a write it still counts once.
      const absorbed = new Set(
        (
          await stack.connector.db.prisma.pendingTicketChange.findMany({
            where: {
              accountId: ticket.account.accountId,
              incidentId: ticket.incidentId,
              eventName: 'incident.takedown_updated',
              writtenAt: { not: null },
              writeRef: null,
            },
            select: { eventRef: true, entry: true },
          })
        )
          .filter((row) => row.entry === null)
          .map((row) => row.eventRef),
      );
      // A closed ticket takes no note: its events after the close are dead letters instead.
      const lettered = new Set(deadLetters.closedTicketEvents.get(ticket.incidentId) ?? []);
      expected += refs.length;
      for (const ref of refs) {
        const n = (counts.get(ref) ?? 0) + (lettered.has(ref) ? 1 : 0);
        if (n === 0 && absorbed.has(ref)) continue;
        if (n === 0) {
          lost += 1;
          const what = noted.find((d) => d.body.id === ref);
          lostRefs.push(
            `${ticket.account.subdomain}#${ticket.ticketId} ${ref} ${what?.event} ${JSON.stringify(what?.body).slice(0, 300)}`,
          );
        }
        if (n > 1) duplicated += n - 1;
      }
      const tally = (ref: string) => (counts.get(ref) ?? 0) + (lettered.has(ref) ? 1 : 0);
      const lostHere = refs.filter((ref) => tally(ref) === 0 && !absorbed.has(ref));
      if (lostHere.length > 0) {
        const attempts = noted
          .filter((d) => lostHere.includes(d.body.id))
          .map((d) => ({ ref: d.body.id, delivery: d.id, attempts: d.attempts }));
        suspect(ticket, `lost ${lostHere.join(', ')}`, attempts, lostHere);
      }
      const doubledHere = [
        ...refs.filter((ref) => tally(ref) > 1),
        ...[...echoRefs].filter((ref) => counts.has(ref)),
      ];
      if (doubledHere.length > 0) {
        suspect(
          ticket,
          `noted more than once: ${doubledHere.join(', ')}`,
          [...current.audits, ...(followUp?.audits ?? [])].filter((audit) =>
            doubledHere.some((ref) => eventRefsOfAudit(audit).includes(ref)),
          ),
        );
      }
      for (const ref of echoRefs) duplicated += counts.get(ref) ?? 0;
      const newest = record.data?.status ?? record.status;
      const field = current.ticket.custom_fields.find(
        (f) => f.id === ticket.account.seed.statusFieldId,
      )?.value;
      const wantedField = newest === undefined ? undefined : statusOptionValue(newest);
      // A closed ticket keeps the Status it had when it was closed.
      if (refs.length > 0 && field !== wantedField && !closedTickets.has(ticket)) {
        statusMismatches += 1;
        const statusEvents = events
          .filter(
            (d) => d.event === 'incident.status_changed' || d.event === 'incident.action_required',
          )
          .map((d) => ({ delivery: d.id, state: d.state, attempts: d.attempts, body: d.body }));
        suspect(
          ticket,
          `status field ${String(field)}, incident ${String(newest)} (${String(wantedField)})`,
          statusEvents,
        );
      }
    }
    if (suspects.length > 0) {
      const diagnosis = await diagnoseTickets(stack.connector.db, stack.schemas.boss, suspects);
      mkdirSync(REPORT_DIR, { recursive: true });
      const file = path.join(REPORT_DIR, `soak-${backend}-diagnosis.json`);
      writeFileSync(file, JSON.stringify(diagnosis, null, 2));
      say(`diagnosis of ${suspects.length} ticket(s) in ${file}`);
    }
    const ticketSide = await traffic.check(pgRestartWindows);
    if (process.env.SOAK_DEBUG) {
      for (const closed of injectedPermanent.closedTickets) {
        const jobs = await stack.connector.db.prisma.$queryRawUnsafe<unknown[]>(
          `SELECT id, state, retry_count, created_on, completed_on, output, data->'event'->>'id' AS event FROM "${stack.schemas.boss}".job WHERE name = 'incident-event' AND data->'event'->'data'->>'incidentId' = $1 ORDER BY created_on`,
          closed.incidentId,
        );
        for (const job of jobs) say(`closed ticket job: ${JSON.stringify(job)}`);
        const links = await stack.connector.db.prisma.incidentLink.findMany({
          where: { incidentId: closed.incidentId },
        });
        say(
          `closed ticket links: ${JSON.stringify(links, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v))}`,
        );
      }
      const jobs = await stack.connector.db.prisma.$queryRawUnsafe<unknown[]>(
        `SELECT state, data, output FROM "${stack.schemas.boss}".job WHERE name = 'ticket-event' ORDER BY created_on`,
      );
      for (const job of jobs) say(JSON.stringify(job));
    }
    const latencies = await stack.connector.db.prisma.$queryRawUnsafe<{ ms: unknown }[]>(
      `SELECT extract(epoch FROM (completed_on - created_on)) * 1000 AS ms FROM "${stack.schemas.boss}".job WHERE name = 'incident-event' AND state = 'completed'`,
    );
    const sorted = latencies.map((r) => Number(r.ms)).sort((x, y) => x - y);
    const percentile = (q: number) =>
      sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! : 0;
    const p99 = percentile(0.99);
    const failedJobs = await stack.connector.db.prisma.$queryRawUnsafe<{ n: unknown }[]>(
      `SELECT count(*) AS n FROM "${stack.schemas.boss}".job WHERE name IN ('incident-event','ticket-event') AND state = 'failed'`,
    );
    const standing = await standingFaults.figures();
    // The connector got itself a new token after the expiry.
    const tokenRenewed =
      tokensBeforeExpiry === null ||
      stack.zendeskSandbox.state.tokens.some(
        (t) => t.subdomain === stack.a.subdomain && !tokensBeforeExpiry!.has(t.id),
      );
    // No secret, token or customer text in any log line of the run (the processes' included).
    const logLeaks = findLogLeaks(
      [...stack.logs.lines(), ...children.map((c) => c.output())],
      [
        ...(await stack.secrets()).map((value) => ({ label: 'a secret or token', value })),
        ...[
          'Soak reply ',
          'Soak step ',
          'Soak report ',
          'Please take this page down',
          'call the number on the letter',
          'Something is wrong, please check',
          'soak-report-',
        ].map((value) => ({ label: `payload text "${value.trim()}"`, value })),
      ],
    );
    faults.set('zendesk_5xx', standing.zendesk5xx);
    faults.set('zendesk_drop', standing.zendeskDropped);
    faults.set('incident_5xx', standing.incident5xx);
    // The 429s the Zendesk sandbox answered, by the limit that answered them.
    const rateLimited = { total: 0, byLimit: {} as Record<string, number> };
    for (const account of accounts) {
      const response = await fetch(
        `${stack.zendeskUrl}/_sandbox/accounts/${account.subdomain}/rate-limited`,
      );
      if (!response.ok) continue;
      const counted = (await response.json()) as {
        total: number;
        by_limit: Record<string, number>;
      };
      rateLimited.total += counted.total;
      for (const [limit, n] of Object.entries(counted.by_limit))
        rateLimited.byLimit[limit] = (rateLimited.byLimit[limit] ?? 0) + n;
    }
    const figures = {
      backend,
      sizes: {
        tickets: TICKETS,
        advances: ADVANCES,
        duplicateRate: DUPLICATE_RATE,
        restarts: RESTARTS,
        faultRate: FAULT_RATE,
        paceMs: PACE_MS,
        kills: KILLS,
        postgresRestarts: PG_RESTARTS,
        ticketWebhooks: TICKET_WEBHOOKS,
        reports: REPORTS,
        accounts: accounts.length,
      },
      eventsSent: deliveries.length,
      deliveriesFailed: deliveries.filter((d) => d.state !== 'delivered').length,
      eventsExpectingNotes: expected,
      applied: expected - lost,
      duplicatesReplayed: replays.sent,
      duplicatesSuppressed: replays.duplicate,
      ticketWebhooks: ticketSide,
      faultsInjected: Object.fromEntries(faults),
      accessTokenRenewedAfterExpiry: tokenRenewed,
      faultRates: {
        configured: FAULT_RATES,
        zendeskRequests: standing.zendeskRequests,
        zendesk5xxSeen: +(standing.zendesk5xx / Math.max(1, standing.zendeskRequests)).toFixed(4),
        zendeskDropSeen: +(standing.zendeskDropped / Math.max(1, standing.zendeskRequests)).toFixed(
          4,
        ),
      },
      zendesk429s: rateLimited,
      restarts,
      kills,
      lost,
      undrained,
      lostRefs: lostRefs.slice(0, 20),
      duplicated,
      statusMismatches,
      deadLetters: {
        syncFailures: deadLetters.total,
        failedJobs: Number(failedJobs[0]?.n ?? 0),
        injectedPermanentFailures: {
          invalidReports: injectedPermanent.invalidReports.length,
          closedTickets: injectedPermanent.closedTickets.length,
          sigkills: injectedPermanent.sigkills.length,
        },
        explained: deadLetters.explained,
        unexpected: deadLetters.unexpected.slice(0, 20),
        missing: deadLetters.missing,
        doubled: deadLetters.doubled,
      },
      logLeaks,
      p99ReceiptToAppliedMs: Math.round(p99),
      p50ReceiptToAppliedMs: Math.round(percentile(0.5)),
      p90ReceiptToAppliedMs: Math.round(percentile(0.9)),
      peakRssMiB: +(sampler.stop() / MiB).toFixed(1),
      ...(KILLS > 0 ? { connectorPeakRssMiB: +(childRss.stop() / MiB).toFixed(1) } : {}),
      ...(privatePg ? { postgresRestarts: pgRestarts } : {}),
      durationMs: Date.now() - started,
    };
    writeReportPart(`soak-${backend}`, figures);
    say(JSON.stringify(figures));
    const ok =
      undrained.length === 0 &&
      lost === 0 &&
      duplicated === 0 &&
      statusMismatches === 0 &&
      figures.deliveriesFailed === 0 &&
      ticketSide.lost === 0 &&
      ticketSide.duplicated === 0 &&
      ticketSide.webhooksFailed === 0 &&
      tokenRenewed &&
      figures.deadLetters.failedJobs === 0 &&
      deadLetters.unexpected.length === 0 &&
      deadLetters.missing.length === 0 &&
      logLeaks.length === 0;
    say(ok ? 'PASSED' : 'FAILED');
    process.exitCode = ok ? 0 : 1;
  } finally {
    // written on every way out, a crash included: the processes' own account of the run
    if (children.length > 0) {
      mkdirSync(REPORT_DIR, { recursive: true });
      writeFileSync(
        path.join(REPORT_DIR, `soak-${backend}-connector.log`),
        children.map((c) => `--- connector process ${c.pid} ---\n${c.output()}`).join('\n'),
      );
    }
    await stack.close();
    privatePg?.stop();
  }
}

await main();
