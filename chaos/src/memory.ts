// Memory figures of this process after a full garbage collection (when --expose-gc allows one),
// and the peak RSS seen by a sampler while a run goes.
import { readFileSync } from 'node:fs';
export interface MemorySample {
  rss: number;
  heapUsed: number;
}

export async function settledMemory(): Promise<MemorySample> {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const usage = process.memoryUsage();
  return { rss: usage.rss, heapUsed: usage.heapUsed };
}

export function gcAvailable(): boolean {
  return typeof (globalThis as { gc?: unknown }).gc === 'function';
}

export function peakRssSampler(intervalMs = 200): { stop(): number } {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, intervalMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage().rss);
    },
  };
}

/**
 * The peak RSS of another process (the connector child), read from /proc while it runs; `watch`
 * names the process to follow from then on, so one sampler spans killed and restarted children.
 */
export function processRssSampler(intervalMs = 200): {
  watch(pid: number): void;
  stop(): number;
} {
  let pid: number | null = null;
  let peak = 0;
  const sample = () => {
    if (pid === null) return;
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kib = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
      peak = Math.max(peak, kib * 1024);
    } catch {
      // gone (killed) or no /proc here
    }
  };
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return {
    watch(next) {
      sample();
      pid = next;
    },
    stop() {
      sample();
      clearInterval(timer);
      return peak;
    },
  };
}

export const MiB = 1024 * 1024;
