// Bytes per row of each growing table, with its indexes and TOAST (pg_total_relation_size), on a
// fresh PostgreSQL database: realistic rows written through the connector's own paths where they
// are cheap to drive (the inbox for receipts and jobs, recordTicketChange, logRequest), the others
// with the shapes the code writes. Prints one line per table, then the steady state at the default
// windows for 1 million incident events and for a day at 100 events/s.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx apps/connector/bench/retention-sizes.ts [rows]
import { randomUUID } from 'node:crypto';
import { createJobQueue, openDatabase, type TDatabase } from '@incident-desk/db';
import { createSetupQueue } from '../src/accounts/setup-job';
import { INCIDENT_EVENT_QUEUE } from '../src/jobs/incident-event-job';
import { createInbox } from '../src/ingest/inbox';
import { DEFAULT_RETENTION } from '../src/retention/retention-settings';
import { RETENTION_INTERVAL_MS } from '../src/retention/retention-service';
import { recordTicketChange } from '../src/sync/ticket-writes/record-ticket-change';
import { logRequest } from '../src/sync/ticket-writes/write-budget';
import { createSyncQueues } from '../src/worker/queues';
import { createPostgresBenchDatabase } from './bench-database';

const ROWS = Number(process.argv[2] ?? 20_000);
const ACCOUNT = '00000000-0000-4000-8000-0000000000aa';
const INCIDENTS = 2_000;
const DAY_S = 86_400;

/** An incident event as the service sends it: a status change or a history entry with a message. */
function incidentEvent(i: number): Record<string, unknown> {
  const incidentId = `inc_${String(i % INCIDENTS).padStart(8, '0')}`;
  const data =
    i % 2 === 0
      ? { incidentId, status: 'takedown_in_progress', previousStatus: 'case_building' }
      : {
          incidentId,
          historyEntry: {
            message:
              'Takedown request sent to the hosting provider; awaiting confirmation from their abuse team.',
          },
        };
  return {
    id: `evt_${randomUUID().replace(/-/g, '').slice(0, 20)}`,
    event: i % 2 === 0 ? 'incident.status_changed' : 'incident.history_created',
    timestamp: new Date().toISOString(),
    clientId: 'cl_8f3a2c1d',
    data,
  };
}

const NOTE = `[incident-desk] Incident inc_00001234 is now Takedown in progress (was Case building).
Takedown request sent to the hosting provider; awaiting confirmation from their abuse team.
Dashboard: https://dashboard.incident-service.example/incidents/inc_00001234
ref evt_9c2d0e7f41aa5b63c8d2`.replace(/\s+/g, ' ');

async function fill(db: TDatabase): Promise<void> {
  await db.prisma.account.create({ data: { id: ACCOUNT, zendeskSubdomain: 'bench' } });
  const boss = await createJobQueue(db, { supervise: false, schedule: false });
  await createSyncQueues(boss);
  await createSetupQueue(boss);
  const inbox = createInbox(db, boss);
  const batch = 500;
  for (let start = 0; start < ROWS; start += batch) {
    await Promise.all(
      Array.from({ length: Math.min(batch, ROWS - start) }, (_, k) => {
        const event = incidentEvent(start + k);
        const incidentId = (event.data as { incidentId: string }).incidentId;
        return inbox.accept({
          source: 'incident',
          dedupeKey: `${ACCOUNT}:${String(event.id)}`,
          accountId: ACCOUNT,
          payload: event,
          rawBody: Buffer.from(JSON.stringify(event)),
          job: {
            queue: INCIDENT_EVENT_QUEUE,
            data: {
              accountId: ACCOUNT,
              receivedAt: new Date().toISOString(),
              subscriptionId: 'sub_4c1f0a9e7b2d4e31a8c5f6d7',
              requestId: randomUUID(),
              event,
            },
            singletonKey: `${ACCOUNT}:${incidentId}`,
          },
        });
      }),
    );
  }
  // as the worker leaves them: completed (finished jobs are what JOB_RETENTION_DAYS keeps)
  await db.prisma.$executeRawUnsafe(
    `UPDATE pgboss.job SET state = 'completed', started_on = now(), completed_on = now()
     WHERE name = $1`,
    INCIDENT_EVENT_QUEUE,
  );

  for (let i = 0; i < ROWS; i += 1) {
    const ticketId = 10_000 + (i % INCIDENTS);
    await recordTicketChange(db, {
      accountId: ACCOUNT,
      ticketId,
      incidentId: `inc_${String(i % INCIDENTS).padStart(8, '0')}`,
      eventRef: `evt_${randomUUID().replace(/-/g, '').slice(0, 20)}`,
      eventName: 'incident.status_changed',
      eventAt: new Date(),
      receivedAt: new Date(),
      entry: { kind: 'status', status: 'takedown_in_progress', supersededBy: null },
      statusValue: 'takedown_in_progress',
      readyAt: new Date(),
      writtenAt: new Date(),
    });
    await logRequest(db, ACCOUNT, [BigInt(ticketId)], false, new Date());
  }
  // the echo ledger: one entry per note written (its most frequent kind)
  await db.prisma.echoLedgerEntry.createMany({
    data: Array.from({ length: ROWS }, (_, i) => ({
      accountId: ACCOUNT,
      kind: 'ticket_note' as const,
      target: String(10_000 + (i % INCIDENTS)),
      text: NOTE,
      settledAt: new Date(),
    })),
  });
  await db.prisma.forwardedComment.createMany({
    data: Array.from({ length: ROWS }, (_, i) => ({
      accountId: ACCOUNT,
      commentId: BigInt(30_000_000_000 + i),
      ticketId: BigInt(10_000 + (i % INCIDENTS)),
      incidentId: `inc_${String(i % INCIDENTS).padStart(8, '0')}`,
      status: 'forwarded' as const,
    })),
  });
  await db.prisma.incidentLink.createMany({
    data: Array.from({ length: ROWS }, (_, i) => ({
      accountId: ACCOUNT,
      incidentId: `inc_${String(i).padStart(8, '0')}`,
      ticketId: BigInt(100_000 + i),
      reportRef: `inc_${String(i).padStart(8, '0')}`,
      dashboardUrl: `https://dashboard.incident-service.example/incidents/inc_${String(i).padStart(8, '0')}`,
      threatValue: `https://login-example-${i}.com/secure/account`,
    })),
  });
  await db.prisma.ticketSyncState.createMany({
    data: Array.from({ length: ROWS }, (_, i) => ({
      accountId: ACCOUNT,
      ticketId: BigInt(100_000 + i),
      lastEventAt: new Date(),
      lastStatus: 'takedown_in_progress',
      lastStatusAt: new Date(),
    })),
  });
  await db.prisma.reportAttempt.createMany({
    data: Array.from({ length: ROWS }, (_, i) => ({
      accountId: ACCOUNT,
      ticketId: BigInt(100_000 + i),
      mode: 'takedown',
      state: 'linked' as const,
      incidentId: `inc_${String(i).padStart(8, '0')}`,
      detail: `linked to incident inc_${String(i).padStart(8, '0')}`,
      finishedAt: new Date(),
    })),
  });
  await boss.stop({ graceful: true, timeout: 5_000 });
}

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('set DATABASE_URL to a PostgreSQL server');
  const bench = await createPostgresBenchDatabase(adminUrl);
  try {
    const db = await openDatabase({
      databaseUrl: (bench.location as { databaseUrl: string }).databaseUrl,
    });
    const tables = [
      'webhook_receipt',
      'pgboss.job',
      'pending_ticket_change',
      'echo_ledger',
      'ticket_write_log',
      'forwarded_comment',
      'incident_link',
      'ticket_sync_state',
      'report_attempt',
    ];
    const sizes = async () => {
      const out = new Map<string, number>();
      for (const table of tables) {
        const [row] = await db.prisma.$queryRawUnsafe<{ bytes: bigint }[]>(
          `SELECT (pg_total_relation_size($1::regclass)
             + COALESCE((SELECT sum(pg_total_relation_size(inhrelid)) FROM pg_inherits
                          WHERE inhparent = $1::regclass), 0))::bigint AS bytes`,
          table,
        );
        out.set(table, Number(row!.bytes));
      }
      return out;
    };
    await createJobQueue(db, { supervise: false, schedule: false }).then((b) => b.stop());
    const empty = await sizes();
    await fill(db);
    // compacted: live rows only (the job rows were updated to completed, leaving dead versions)
    await db.prisma.$executeRawUnsafe('VACUUM FULL ANALYZE');
    const full = await sizes();
    const perRow: Record<string, number> = {};
    console.log(`rows per table: ${ROWS}`);
    for (const table of tables) {
      perRow[table] = Math.round((full.get(table)! - empty.get(table)!) / ROWS);
      console.log(`${table.padEnd(26)} ${String(perRow[table]).padStart(6)} bytes/row`);
    }
    // one incident event: a receipt, a job, a recorded change and (at most) a note; a write-log row
    const { receiptDays, jobDays } = DEFAULT_RETENTION;
    const maintenanceDays = 1; // pg-boss checks each queue once a day
    const passDays = RETENTION_INTERVAL_MS / 1000 / DAY_S;
    const held = {
      webhook_receipt: receiptDays + passDays,
      'pgboss.job': jobDays + maintenanceDays,
      pending_ticket_change: 2 + passDays,
      echo_ledger: 2 + passDays,
      ticket_write_log: 600 / DAY_S + 60 / DAY_S,
    };
    const perEvent = Object.keys(held).reduce((sum, table) => sum + perRow[table]!, 0);
    const gb = (bytes: number) => (bytes / 1e9).toFixed(2);
    console.log(`one incident event, all its rows: ${perEvent} bytes`);
    console.log(`1 million events inside their windows: ${gb(perEvent * 1e6)} GB`);
    const daily = 100 * DAY_S;
    let steady = 0;
    for (const [table, days] of Object.entries(held)) {
      const bytes = perRow[table]! * daily * days;
      steady += bytes;
      console.log(`  100/s, ${table}: ${days.toFixed(3)} days held, ${gb(bytes)} GB`);
    }
    console.log(`100 events/s, steady state at the default windows: ${gb(steady)} GB`);
    await db.close();
  } finally {
    await bench.dispose();
  }
}

await main();
