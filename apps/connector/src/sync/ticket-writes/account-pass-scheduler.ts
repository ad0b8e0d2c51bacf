// When each account's writer runs its next pass, and how many run at once. An account is due at a
// time (a signal: now; a pass's result: when something may next be written); at most
// `concurrency` passes run at once, and among due accounts the one that waited longest since its
// last pass goes first, so an account with a long backlog (one pass per turn) never keeps a slot
// while others wait. Passes of one account are spaced by `minPassIntervalMs`: whatever became
// ready in between goes in one request (several tickets in one update_many) instead of each ticket
// alone the moment its hold ends.

export interface PassOutcome {
  /** When the account may have something to write next; null when nothing waits. */
  nextAt: Date | null;
}

export interface AccountPassScheduler {
  /**
   * The account may have something to write at `at` (default now): it is due then, unless due
   * sooner already, never sooner than its spacing allows. During its pass: one more pass follows.
   */
  want(accountId: string, at?: Date): void;
  /** Takes the account off the schedule (it holds nothing here) until `until`: wants are ignored. */
  ignoreUntil(accountId: string, until: Date): void;
  /** Accounts due or running. */
  scheduled(): number;
  /** Resolves when no pass is running (tests). */
  idle(): Promise<void>;
  /** Runs no more passes; resolves once those running are over. */
  stop(): Promise<void>;
}

export interface AccountPassSchedulerOptions {
  /** Passes running at once. */
  concurrency: number;
  /** One pass of the account. A throw is reported, and no pass of the account starts for `errorBackoffMs`. */
  runPass: (accountId: string) => Promise<PassOutcome>;
  /** Least time from the end of an account's pass to the start of its next. Default 1 000 ms. */
  minPassIntervalMs?: number;
  /** Wait after a pass that threw. Default 5 000 ms. */
  errorBackoffMs?: number;
  now?: () => number;
  onError?: (accountId: string, error: unknown) => void;
}

export function startAccountPassScheduler(
  options: AccountPassSchedulerOptions,
): AccountPassScheduler {
  const now = options.now ?? Date.now;
  const spacing = options.minPassIntervalMs ?? 1_000;
  /** Due accounts by due time, in round-robin order (an account goes to the back after its pass). */
  const due = new Map<string, number>();
  const running = new Map<string, Promise<void>>();
  /** Accounts wanted during their pass, and for when: one more pass follows then. */
  const wantedWhileRunning = new Map<string, number>();
  /** When each account may next start a pass (its last pass's end plus the spacing). */
  const notBefore = new Map<string, number>();
  const ignored = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  function schedule(accountId: string, at: number): void {
    const when = Math.max(at, notBefore.get(accountId) ?? 0);
    const current = due.get(accountId);
    if (current === undefined) due.set(accountId, when);
    else if (when < current) due.set(accountId, when); // keeps its place in the order
  }

  function pump(): void {
    if (stopped) return;
    const t = now();
    for (const [accountId, at] of due) {
      if (running.size >= options.concurrency) break;
      if (at > t || running.has(accountId)) continue;
      due.delete(accountId);
      start(accountId);
    }
    arm();
  }

  function arm(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (stopped || running.size >= options.concurrency) return;
    let next = Infinity;
    for (const [accountId, at] of due) if (!running.has(accountId)) next = Math.min(next, at);
    if (next === Infinity) return;
    timer = setTimeout(pump, Math.max(0, next - now()));
    timer.unref();
  }

  function start(accountId: string): void {
    wantedWhileRunning.delete(accountId);
    let failed = false;
    const pass = options
      .runPass(accountId)
      .then(
        (outcome) => outcome,
        (error: unknown): PassOutcome => {
          // e.g. the account needs re-authorisation: its changes wait, tried again later
          failed = true;
          options.onError?.(accountId, error);
          return { nextAt: new Date(now()) };
        },
      )
      .then((outcome) => {
        running.delete(accountId);
        const end = now();
        notBefore.set(accountId, end + (failed ? (options.errorBackoffMs ?? 5_000) : spacing));
        if (stopped) return;
        const wanted = wantedWhileRunning.get(accountId);
        wantedWhileRunning.delete(accountId);
        if (wanted !== undefined) schedule(accountId, wanted);
        if (outcome.nextAt !== null) schedule(accountId, outcome.nextAt.getTime());
        if (!due.has(accountId)) notBefore.delete(accountId);
        pump();
      });
    running.set(accountId, pass);
  }

  return {
    want(accountId, at) {
      if (stopped) return;
      const t = now();
      const until = ignored.get(accountId);
      if (until !== undefined) {
        if (until > t) return;
        ignored.delete(accountId);
      }
      const when = at?.getTime() ?? t;
      if (running.has(accountId)) {
        wantedWhileRunning.set(
          accountId,
          Math.min(when, wantedWhileRunning.get(accountId) ?? when),
        );
        return;
      }
      schedule(accountId, when);
      pump();
    },
    ignoreUntil(accountId, until) {
      due.delete(accountId);
      wantedWhileRunning.delete(accountId);
      ignored.set(accountId, until.getTime());
      arm();
    },
    scheduled: () => new Set([...due.keys(), ...running.keys()]).size,
    async idle() {
      while (running.size > 0) await Promise.all([...running.values()]);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await Promise.all([...running.values()]);
    },
  };
}
