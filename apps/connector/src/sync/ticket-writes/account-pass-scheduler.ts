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
  return new PassSchedule(options);
}

class PassSchedule implements AccountPassScheduler {
  private readonly now: () => number;
  private readonly spacing: number;
  /** Due accounts by due time, in round-robin order (an account goes to the back after its pass). */
  private readonly due = new Map<string, number>();
  private readonly running = new Map<string, Promise<void>>();
  /** Accounts wanted during their pass, and for when: one more pass follows then. */
  private readonly wantedWhileRunning = new Map<string, number>();
  /** When each account may next start a pass (its last pass's end plus the spacing). */
  private readonly notBefore = new Map<string, number>();
  private readonly ignored = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: AccountPassSchedulerOptions) {
    this.now = options.now ?? Date.now;
    this.spacing = options.minPassIntervalMs ?? 1_000;
  }

  want(accountId: string, at?: Date): void {
    if (this.stopped) return;
    const t = this.now();
    const until = this.ignored.get(accountId);
    if (until !== undefined) {
      if (until > t) return;
      this.ignored.delete(accountId);
    }
    const when = at?.getTime() ?? t;
    if (this.running.has(accountId)) {
      this.wantedWhileRunning.set(
        accountId,
        Math.min(when, this.wantedWhileRunning.get(accountId) ?? when),
      );
      return;
    }
    this.schedule(accountId, when);
    this.pump();
  }

  ignoreUntil(accountId: string, until: Date): void {
    this.due.delete(accountId);
    this.wantedWhileRunning.delete(accountId);
    this.ignored.set(accountId, until.getTime());
    this.arm();
  }

  scheduled(): number {
    return new Set([...this.due.keys(), ...this.running.keys()]).size;
  }

  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await Promise.all([...this.running.values()]);
  }

  private schedule(accountId: string, at: number): void {
    const when = Math.max(at, this.notBefore.get(accountId) ?? 0);
    const current = this.due.get(accountId);
    if (current === undefined) this.due.set(accountId, when);
    else if (when < current) this.due.set(accountId, when); // keeps its place in the order
  }

  private pump(): void {
    if (this.stopped) return;
    const t = this.now();
    for (const [accountId, at] of this.due) {
      if (this.running.size >= this.options.concurrency) break;
      if (at > t || this.running.has(accountId)) continue;
      this.due.delete(accountId);
      this.start(accountId);
    }
    this.arm();
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.stopped || this.running.size >= this.options.concurrency) return;
    let next = Infinity;
    for (const [accountId, at] of this.due)
      if (!this.running.has(accountId)) next = Math.min(next, at);
    if (next === Infinity) return;
    this.timer = setTimeout(() => this.pump(), Math.max(0, next - this.now()));
    this.timer.unref();
  }

  private start(accountId: string): void {
    this.wantedWhileRunning.delete(accountId);
    let failed = false;
    const pass = this.options
      .runPass(accountId)
      .then(
        (outcome) => outcome,
        (error: unknown): PassOutcome => {
          // e.g. the account needs re-authorisation: its changes wait, tried again later
          failed = true;
          this.options.onError?.(accountId, error);
          return { nextAt: new Date(this.now()) };
        },
      )
      .then((outcome) => this.passEnded(accountId, outcome, failed));
    this.running.set(accountId, pass);
  }

  private passEnded(accountId: string, outcome: PassOutcome, failed: boolean): void {
    this.running.delete(accountId);
    const end = this.now();
    this.notBefore.set(
      accountId,
      end + (failed ? (this.options.errorBackoffMs ?? 5_000) : this.spacing),
    );
    if (this.stopped) return;
    const wanted = this.wantedWhileRunning.get(accountId);
    this.wantedWhileRunning.delete(accountId);
    if (wanted !== undefined) this.schedule(accountId, wanted);
    if (outcome.nextAt !== null) this.schedule(accountId, outcome.nextAt.getTime());
    if (!this.due.has(accountId)) this.notBefore.delete(accountId);
    this.pump();
  }
}
