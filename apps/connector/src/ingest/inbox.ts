// The inbox is where a verified webhook becomes durable. A receipt row (unique per source and
// dedupe key) and the job that will process it are written in ONE transaction, so an
// acknowledged delivery always has its job, and a redelivery finds the receipt and adds nothing.
// Concurrent deliveries are group-committed: while a transaction runs, the next deliveries gather
// and share the following one, which keeps throughput up at the cost of one event-loop turn.
// Each delivery is made storable before it joins a group (storable.ts), and a group that fails
// on an entry's own values anyway is written again one entry at a time, so only that entry is
// refused and the deliveries beside it are not.
import { isUtf8 } from 'node:buffer';
import {
  capabilitiesOf,
  withSqlTransaction,
  type JobInsert,
  type PgBoss,
  type TDatabase,
} from '@incident-desk/db';
import { syncJobOptions } from './sync-job-options';
import { currentLogContext } from '../log';
import { orderedUuid } from './ordered-id';

import {
  isEntryFault,
  sqlStateOf,
  storableJson,
  storableText,
  UnstorableDeliveryError,
} from './storable';

type WebhookSource = 'zendesk' | 'incident';

export interface InboxEntry {
  source: WebhookSource;
  dedupeKey: string;
  accountId: string | null;
  /** What was received, kept with the receipt for audit and replay. */
  payload: unknown;
  /** The exact bytes received; kept beside the payload when it had to differ from them. */
  rawBody?: Buffer;
  job: {
    queue: string;
    data: object;
    /** Jobs with the same key are processed one at a time, in order (key_strict_fifo queues). */
    singletonKey?: string;
  };
}

export type InboxOutcome = { status: 'accepted'; receiptId: string } | { status: 'duplicate' };

export interface Inbox {
  accept(entry: InboxEntry): Promise<InboxOutcome>;
}

interface Pending {
  /** Storable: its strings hold no NUL or lone surrogate, its JSON is shallow enough. */
  entry: InboxEntry;
  payloadJson: string;
  rawBody: Buffer | null;
  resolve(outcome: InboxOutcome): void;
  reject(error: unknown): void;
}

export interface InboxOptions {
  /** Most entries in one transaction. Default 200. */
  maxBatchSize?: number;
  /**
   * Transactions in flight at once. Default 2 on PostgreSQL, so one batch's round trips overlap
   * the next; always 1 on PGlite, which has a single connection.
   */
  concurrentTransactions?: number;
  /** Told after each commit how many jobs it added to each queue (to wake workers in this process). */
  onJobsCommitted?: (queue: string, count: number) => void;
}

/** The job's data with the id of the request enqueueing it, for the job's log lines. */
function withRequestId(data: object): object {
  const { reqId } = currentLogContext();
  return reqId === undefined || 'requestId' in data ? data : { ...data, requestId: reqId };
}

/** The entry as it can be written, or UnstorableDeliveryError when it cannot be. */
function prepare(entry: InboxEntry): Omit<Pending, 'resolve' | 'reject'> {
  const payload = storableJson(entry.payload);
  const data = storableJson(withRequestId(entry.job.data)).value as object;
  const { singletonKey } = entry.job;
  const keepRaw = entry.rawBody !== undefined && (payload.changed || !isUtf8(entry.rawBody));
  return {
    entry: {
      ...entry,
      dedupeKey: storableText(entry.dedupeKey),
      payload: payload.value,
      job: {
        queue: entry.job.queue,
        data,
        ...(singletonKey === undefined ? {} : { singletonKey: storableText(singletonKey) }),
      },
    },
    payloadJson: JSON.stringify(payload.value),
    rawBody: keepRaw ? entry.rawBody! : null,
  };
}

/**
 * One transaction for a batch: each new entry's receipt and job, duplicates (within the batch, or
 * of a receipt already kept) told so; then how many jobs each queue got.
 */
async function commitBatch(
  db: TDatabase,
  boss: PgBoss,
  batch: Pending[],
  onJobsCommitted: InboxOptions['onJobsCommitted'],
): Promise<Map<Pending, InboxOutcome>> {
  const outcomes = new Map<Pending, InboxOutcome>();
  const firstByKey = new Map<string, { pending: Pending; id: string }>();
  for (const pending of batch) {
    const key = `${pending.entry.source}\u0000${pending.entry.dedupeKey}`;
    if (firstByKey.has(key)) outcomes.set(pending, { status: 'duplicate' });
    // ids in arrival order: the jobs of one key then run in that order (see ordered-id.ts)
    else firstByKey.set(key, { pending, id: orderedUuid() });
  }
  // One key order for every transaction, so two in flight never wait on each other in a cycle.
  const candidates = [...firstByKey.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, candidate]) => candidate);

  let committed = new Map<string, unknown[]>();
  await withSqlTransaction(db, async (sql) => {
    const { rows } = await sql.executeSql(
      `INSERT INTO webhook_receipt (id, account_id, source, dedupe_key, payload, raw_body)
       SELECT id, account_id, source::webhook_source, dedupe_key, payload::jsonb,
              decode(raw_body, 'hex')
       FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[])
         AS entry (id, account_id, source, dedupe_key, payload, raw_body)
       ON CONFLICT (source, dedupe_key) DO NOTHING
       RETURNING id`,
      [
        candidates.map((c) => c.id),
        candidates.map((c) => c.pending.entry.accountId),
        candidates.map((c) => c.pending.entry.source),
        candidates.map((c) => c.pending.entry.dedupeKey),
        candidates.map((c) => c.pending.payloadJson),
        candidates.map((c) => c.pending.rawBody?.toString('hex') ?? null),
      ],
    );
    const inserted = new Set(rows.map((row) => String(row.id)));
    const jobsByQueue = new Map<string, JobInsert[]>();
    for (const { pending, id } of candidates) {
      if (!inserted.has(id)) {
        outcomes.set(pending, { status: 'duplicate' });
        continue;
      }
      outcomes.set(pending, { status: 'accepted', receiptId: id });
      const { queue, data, singletonKey } = pending.entry.job;
      const jobs = jobsByQueue.get(queue) ?? [];
      jobs.push({
        id,
        data,
        ...(singletonKey === undefined ? {} : { singletonKey }),
        ...syncJobOptions(pending.entry.accountId),
      });
      jobsByQueue.set(queue, jobs);
    }
    for (const [queue, jobs] of jobsByQueue) await boss.insert(queue, jobs, { db: sql });
    committed = jobsByQueue;
  });
  for (const [queue, jobs] of committed) onJobsCommitted?.(queue, jobs.length);
  return outcomes;
}

export function createInbox(db: TDatabase, boss: PgBoss, options: InboxOptions = {}): Inbox {
  const maxBatchSize = options.maxBatchSize ?? 200;
  const lanes =
    capabilitiesOf(db).connections === 'single' ? 1 : (options.concurrentTransactions ?? 2);
  let waiting: Pending[] = [];
  let active = 0;

  // Deferred one turn so requests already read off the sockets join the batch: a PGlite
  // transaction never yields, and would otherwise commit each delivery alone.
  function schedule(): void {
    if (active >= lanes || waiting.length === 0) return;
    active += 1;
    setImmediate(() => void flush());
  }

  async function settle(batch: Pending[]): Promise<void> {
    try {
      const outcomes = await commitBatch(db, boss, batch, options.onJobsCommitted);
      for (const pending of batch) pending.resolve(outcomes.get(pending)!);
    } catch (error) {
      if (!isEntryFault(error)) {
        for (const pending of batch) pending.reject(error);
      } else if (batch.length > 1) {
        // An entry the checks let through still failed the group: each alone, so only it fails.
        for (const pending of batch) await settle([pending]);
      } else {
        // The database's message may quote the values: the refusal names the SQLSTATE only.
        batch[0]!.reject(
          new UnstorableDeliveryError(
            'unstorable_payload',
            `the database cannot store this delivery (SQLSTATE ${sqlStateOf(error) ?? 'none'})`,
          ),
        );
      }
    }
  }

  async function flush(): Promise<void> {
    const batch = waiting.slice(0, maxBatchSize);
    waiting = waiting.slice(batch.length);
    try {
      if (batch.length > 0) await settle(batch);
    } finally {
      active -= 1;
      schedule();
    }
  }

  return {
    accept(entry) {
      return new Promise<InboxOutcome>((resolve, reject) => {
        waiting.push({ ...prepare(entry), resolve, reject });
        schedule();
      });
    },
  };
}
