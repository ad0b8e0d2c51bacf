// Which connector processes are alive. Each beats a heartbeat into connector_instance every few
// seconds; one whose heartbeat is older than the dead-after time is dead (killed, frozen, cut off
// from the database), and what it held (an account's ticket writer, changes it was sending) is
// taken over at once instead of waiting out leases sized for a live holder.
import { randomUUID } from 'node:crypto';
import type { TDatabase } from '@incident-desk/db';

/** How often an instance renews its heartbeat. */
const HEARTBEAT_INTERVAL_MS = 2_500;
/** A heartbeat older than this means the instance is dead: four missed beats. */
const DEAD_AFTER_MS = 10_000;
/** Rows of instances gone this long are removed at start-up. */
const FORGET_AFTER_MS = 24 * 60 * 60 * 1000;

export interface InstanceLiveness {
  /** This process's id, random per start: what it records as the holder of what it holds. */
  readonly instanceId: string;
  readonly deadAfterMs: number;
  /** Whether the instance beat its heartbeat within the dead-after time (unknown ids are dead). */
  isInstanceAlive(instanceId: string): Promise<boolean>;
  /** Heartbeats at or before this instant are dead ones: SQL compares `heartbeat_at > cutoff`. */
  aliveCutoff(): Date;
  /**
   * Whether this process's own last heartbeat is recent enough that others surely still count it
   * alive (within half the dead-after time): what it starts that must not be raced waits otherwise.
   */
  heartbeatFresh(): boolean;
  /** Stops beating and removes the row: whatever still names this instance is void at once. */
  stop(): Promise<void>;
}

export interface InstanceLivenessOptions {
  db: TDatabase;
  now?: () => Date;
  heartbeatIntervalMs?: number;
  deadAfterMs?: number;
  /** Default: a random UUID. */
  instanceId?: string;
  /** A heartbeat that failed (the first of a run of failures, and the recovery). */
  log?: (message: string) => void;
}

/**
 * The SQL condition "the instance named by `idExpression` is alive", given the placeholder of the
 * cutoff (aliveCutoff()): for queries that void what dead instances hold.
 */
export function instanceAliveSql(idExpression: string, cutoffPlaceholder: string): string {
  return `EXISTS (SELECT 1 FROM connector_instance AS live
                   WHERE live.id = ${idExpression} AND live.heartbeat_at > ${cutoffPlaceholder})`;
}

/** Registers this process and keeps its heartbeat going until stop(). */
export async function startInstanceLiveness(
  options: InstanceLivenessOptions,
): Promise<InstanceLiveness> {
  const { db } = options;
  const now = options.now ?? (() => new Date());
  const deadAfterMs = options.deadAfterMs ?? DEAD_AFTER_MS;
  const instanceId = options.instanceId ?? randomUUID();
  const log = options.log ?? ((message: string) => console.error(message));

  const started = now();
  await db.prisma.connectorInstance.deleteMany({
    where: { heartbeatAt: { lt: new Date(started.getTime() - FORGET_AFTER_MS) } },
  });
  await db.prisma.connectorInstance.create({
    data: { id: instanceId, startedAt: started, heartbeatAt: started },
  });
  let lastBeat = started.getTime();
  let failing = false;
  let stopped = false;
  let beating: Promise<void> = Promise.resolve();

  async function beat(): Promise<void> {
    const at = now();
    try {
      // upsert: a row removed by hand (or by an operator's clean-up) comes back
      await db.prisma.connectorInstance.upsert({
        where: { id: instanceId },
        create: { id: instanceId, startedAt: started, heartbeatAt: at },
        update: { heartbeatAt: at },
      });
      lastBeat = at.getTime();
      if (failing) log(`instance ${instanceId}: heartbeat recorded again`);
      failing = false;
    } catch (error) {
      if (!failing && !stopped)
        log(
          `instance ${instanceId}: heartbeat failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      failing = true;
    }
  }
  const timer = setInterval(() => {
    beating = beating.then(beat);
  }, options.heartbeatIntervalMs ?? HEARTBEAT_INTERVAL_MS);
  timer.unref();

  const aliveCutoff = () => new Date(now().getTime() - deadAfterMs);
  return {
    instanceId,
    deadAfterMs,
    aliveCutoff,
    async isInstanceAlive(id) {
      const found = await db.prisma.connectorInstance.count({
        where: { id, heartbeatAt: { gt: aliveCutoff() } },
      });
      return found > 0;
    },
    heartbeatFresh: () => !stopped && now().getTime() - lastBeat < deadAfterMs / 2,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      await beating;
      // a database that is away: the heartbeat goes stale instead, and dies the same way later
      await db.prisma.connectorInstance
        .deleteMany({ where: { id: instanceId } })
        .catch(() => undefined);
    },
  };
}
