// Signed 1 KB incident events, each with its own id so none is a duplicate. They are signed just
// before each run (prepare) so the load generator spends its time sending, not hashing, and every
// timestamp is well inside the receiver's 300 s tolerance.
import { signWebhook } from '@incident-desk/incident-api';

interface SignedEvent {
  /** The inbox dedupe key the connector derives: `<accountId>:<event id>`. */
  dedupeKey: string;
  headers: Record<string, string>;
  body: Buffer;
}

export interface SignedEventPoolOptions {
  prefix: string;
  accountId: string;
  secret: string;
  bodyBytes: number;
  /** Events spread over this many incidents (the connector's per-incident FIFO key). */
  incidents: number;
}

export interface SignedEventPool {
  /** Drops what is left and signs `count` fresh events. */
  prepare(count: number): void;
  next(): SignedEvent;
  /** Events signed during a run because the prepared ones ran out. */
  readonly signedLate: number;
}

export function createSignedEventPool(options: SignedEventPoolOptions): SignedEventPool {
  let counter = 0;
  let signedLate = 0;
  let events: (SignedEvent | undefined)[] = [];
  let index = 0;

  const make = (): SignedEvent => {
    counter += 1;
    const id = `evt_${options.prefix}_${counter}`;
    const envelope = (message: string) =>
      JSON.stringify({
        id,
        event: 'incident.history_created',
        timestamp: new Date().toISOString(),
        clientId: 'bench-client',
        data: {
          incidentId: `inc_bench_${counter % options.incidents}`,
          status: 'takedown_in_progress',
          historyEntry: { message },
        },
      });
    const padding = Math.max(0, options.bodyBytes - Buffer.byteLength(envelope('')));
    const body = Buffer.from(envelope('m'.repeat(padding)), 'utf8');
    return {
      dedupeKey: `${options.accountId}:${id}`,
      headers: {
        'content-type': 'application/json',
        ...signWebhook({ secret: options.secret, body }),
      },
      body,
    };
  };

  return {
    prepare(count) {
      events = Array.from({ length: count }, make);
      index = 0;
    },
    next() {
      const event = events[index];
      if (!event) {
        signedLate += 1;
        return make();
      }
      events[index] = undefined; // let sent bodies be collected
      index += 1;
      return event;
    },
    get signedLate() {
      return signedLate;
    },
  };
}
