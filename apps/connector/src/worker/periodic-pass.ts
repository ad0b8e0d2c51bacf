export interface PeriodicPass<T> {
  /** Runs a pass now, after any pass under way. */
  runOnce(): Promise<T>;
  /** Stops scheduling and waits for the pass under way. */
  stop(): Promise<void>;
}

export interface PeriodicPassOptions<T> {
  /** One pass; `stopped()` turns true when the service stops, so a long pass can end early. */
  pass(stopped: () => boolean): Promise<T>;
  /** What a failed pass leaves for the next `runOnce` to chain on. */
  empty: T;
  firstPassDelayMs: number;
  intervalMs: number;
  onError(error: unknown): void;
}

/** A pass run on a timer, one at a time; a failed pass is reported and the next one tries again. */
export function startPeriodicPass<T>(options: PeriodicPassOptions<T>): PeriodicPass<T> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<T> = Promise.resolve(options.empty);
  const isStopped = () => stopped;

  function runOnce(): Promise<T> {
    running = running.catch(() => options.empty).then(() => options.pass(isStopped));
    return running;
  }

  function schedule(delayMs: number): void {
    if (stopped) return;
    timer = setTimeout(() => {
      runOnce()
        .catch((error: unknown) => {
          if (!stopped) options.onError(error);
        })
        .finally(() => schedule(options.intervalMs));
    }, delayMs);
    timer.unref();
  }
  schedule(options.firstPassDelayMs);

  return {
    runOnce,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running.catch(() => undefined);
    },
  };
}
