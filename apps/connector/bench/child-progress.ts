// A child process (a connector instance, the ingest server under test) takes what it takes to start
// on a loaded machine. Waiting for it goes on while it lives and uses CPU time (its own and that of
// its children, such as tsx's esbuild), read from /proc; it fails when the child exits, or once the
// child has used none for STALL_MS: then it is killed and the wait fails saying so.
import { readdirSync, readFileSync } from 'node:fs';
import { progress } from '../../../scripts/bench-support';

/** A child that used no CPU time this long is stuck, not slow. */
const STALL_MS = 180_000;
/** For a helper that wants a time limit on start-up: the longest a timer takes. */
export const NO_TIME_LIMIT_MS = 2 ** 31 - 1;
const POLL_MS = 2_000;
const TICKS_PER_SECOND = 100;

interface ProcessStat {
  ppid: number;
  cpuTicks: number;
}

function processTable(): Map<number, ProcessStat> {
  const table = new Map<number, ProcessStat>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // after "pid (name) ": state, ppid, ... utime, stime, cutime, cstime (fields 14 to 17)
      const fields = stat
        .slice(stat.lastIndexOf(')') + 2)
        .split(' ')
        .map(Number);
      const ticks = fields[11]! + fields[12]! + fields[13]! + fields[14]!;
      table.set(Number(entry), { ppid: fields[1]!, cpuTicks: ticks });
    } catch {
      // exited meanwhile
    }
  }
  return table;
}

function childrenOf(table: Map<number, ProcessStat>, pid: number): number[] {
  return [...table].filter(([, stat]) => stat.ppid === pid).map(([child]) => child);
}

/** CPU ticks of the processes and all their descendants. */
function treeTicks(table: Map<number, ProcessStat>, roots: readonly number[]): number {
  let ticks = 0;
  const queue = [...roots];
  for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
    ticks += table.get(pid)?.cpuTicks ?? 0;
    queue.push(...childrenOf(table, pid));
  }
  return ticks;
}

/**
 * Waits for `work` (the start of a child, or its stop) while the child makes progress. The child
 * is `pids()`, by default every child of this process that `work` starts.
 */
export async function whileChildWorks<T>(
  what: string,
  work: () => Promise<T>,
  { pids, stallMs = STALL_MS }: { pids?: () => number[]; stallMs?: number } = {},
): Promise<T> {
  const watched = pids ?? newChildren();
  const startedAt = Date.now();
  let ticks = -1;
  let movedAt = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const restore = progress.doing(() => {
    const idle = Math.round((Date.now() - movedAt) / 1000);
    return (
      `${what}: ${Math.round((Date.now() - startedAt) / 1000)} s, the child used ` +
      `${(Math.max(0, ticks) / TICKS_PER_SECOND).toFixed(1)} s of CPU${idle >= 10 ? `, none for ${idle} s` : ''}`
    );
  });
  const stalled = new Promise<never>((_, reject) => {
    timer = setInterval(
      () => {
        const roots = watched();
        const now = treeTicks(processTable(), roots);
        if (now !== ticks) {
          ticks = now;
          movedAt = Date.now();
        } else if (Date.now() - movedAt > stallMs) {
          for (const pid of roots) killQuietly(pid);
          reject(
            new Error(`${what}: the child used no CPU time for ${stallMs / 1000} s; stopped it`),
          );
        }
      },
      Math.min(POLL_MS, stallMs / 4),
    );
  });
  const working = work();
  try {
    return await Promise.race([working, stalled]);
  } finally {
    clearInterval(timer);
    restore();
    working.catch(() => undefined); // failed after the stall was reported
  }
}

/** The children of this process started from now on. */
function newChildren(): () => number[] {
  const before = new Set(childrenOf(processTable(), process.pid));
  return () => childrenOf(processTable(), process.pid).filter((pid) => !before.has(pid));
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
