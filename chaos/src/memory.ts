// Memory figures of this process after a full garbage collection (when --expose-gc allows one),
// and the peak RSS seen by a sampler while a run goes.
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

export const MiB = 1024 * 1024;
