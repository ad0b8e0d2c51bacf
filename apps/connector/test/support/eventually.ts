// Waits that follow progress, not the clock: on a loaded machine everything is slower, so a wait
// fails only once nothing happened for minutes, or once the thing it follows stopped moving.

/** How long a wait goes on without its answer (or, with `progress`, without progress). */
export const WAIT_STALL_MS = 120_000;

export interface WaitOptions {
  /** Default WAIT_STALL_MS. */
  stallMs?: number;
  intervalMs?: number;
  /**
   * A reading that changes while the awaited thing is on its way (a count of writes, a child's CPU
   * time): each change starts the `stallMs` anew.
   */
  progress?: () => unknown;
}

/** Polls `probe` until it returns a value (not undefined); fails naming `what` once it stalls. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  { stallMs = WAIT_STALL_MS, intervalMs = 200, progress }: WaitOptions = {},
): Promise<T> {
  let reading = await progress?.();
  let movedAt = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    const now = await progress?.();
    if (now !== reading) {
      reading = now;
      movedAt = Date.now();
    } else if (Date.now() - movedAt > stallMs) {
      const stalled = progress ? 'no progress' : 'nothing';
      throw new Error(`timed out waiting for ${what}: ${stalled} for ${stallMs / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** `waiting`'s outcome, for as long as `progress` keeps changing (see eventually). */
export async function whileProgressing<T>(
  what: string,
  waiting: Promise<T>,
  options: WaitOptions & { progress: () => unknown },
): Promise<T> {
  let outcome: { value: T } | { error: unknown } | undefined;
  waiting.then(
    (value) => (outcome = { value }),
    (error: unknown) => (outcome = { error }),
  );
  const settled = await eventually(what, () => outcome, { intervalMs: 250, ...options });
  if ('error' in settled) throw settled.error;
  return settled.value;
}
