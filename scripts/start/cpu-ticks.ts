import { readFileSync } from 'node:fs';

/** CPU time a process has used so far, in clock ticks (Linux's /proc); 0 where it cannot be read. */
export function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the fields after the command's closing parenthesis start at field 3; utime and stime are 14, 15
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]) || 0;
  } catch {
    return 0;
  }
}

/** /proc counts CPU time in clock ticks of 1/100 s (Linux's USER_HZ). */
const MS_PER_CLOCK_TICK = 10;

/** CPU time the processes have used so far together, in milliseconds. */
export function cpuMillis(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => sum + cpuTicks(pid), 0) * MS_PER_CLOCK_TICK;
}
