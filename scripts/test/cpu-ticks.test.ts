// The CPU time `npm start` reads as a service's progress.
import { describe, expect, it } from 'vitest';
import { cpuTicks } from '../start/cpu-ticks';

describe.runIf(process.platform === 'linux')('cpuTicks', () => {
  it('grows while a process computes', () => {
    const before = cpuTicks(process.pid);
    let spins = 0;
    while (cpuTicks(process.pid) === before) spins += 1;
    expect(cpuTicks(process.pid)).toBeGreaterThan(before);
    expect(spins).toBeGreaterThan(0);
  });

  it('is 0 for a process that does not exist', () => {
    expect(cpuTicks(2 ** 22 + 1)).toBe(0);
  });
});
