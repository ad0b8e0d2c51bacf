// `npm start` waits for each service as long as it works: while the process lives and makes progress
// (CPU time, output), however slow the machine, saying every few seconds what it waits for. It gives
// up only when the process exits, or has made no progress for minutes.

export interface WaitTarget {
  /** As the terminal names it: "the connector". */
  name: string;
  /** What answering means, for the terminal: the address probed. */
  url: string;
  /** Whether it answers now. */
  answers: () => Promise<boolean>;
  /** Why it exited ("exit 1", "SIGKILL"), or null while it runs. */
  exited: () => string | null;
  /** A figure that grows while the process works (its CPU time, what it printed). */
  progress: () => number;
}

export interface WaitOptions {
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Between two probes. Default 250 ms. */
  pollMs?: number;
  /** How often the terminal is told what is awaited. Default 5 s. */
  reportEveryMs?: number;
  /** No progress for this long and it is given up. Default 3 minutes. */
  stallMs?: number;
  report?: (line: string) => void;
}

export class StartFailed extends Error {
  override name = 'StartFailed';
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

export async function waitUntilAnswering(
  target: WaitTarget,
  options: WaitOptions = {},
): Promise<void> {
  const now = options.now ?? Date.now;
  const sleep =
    options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const pollMs = options.pollMs ?? 250;
  const reportEveryMs = options.reportEveryMs ?? 5_000;
  const stallMs = options.stallMs ?? 180_000;
  const report = options.report ?? ((line: string) => console.log(line));

  const started = now();
  let lastProgress = target.progress();
  let progressedAt = started;
  let reportedAt = started;
  for (;;) {
    const exited = target.exited();
    if (exited !== null)
      throw new StartFailed(
        `${target.name} stopped while starting (${exited}); its output is above.`,
      );
    if (await target.answers()) return;
    const at = now();
    const progress = target.progress();
    if (progress !== lastProgress) {
      lastProgress = progress;
      progressedAt = at;
    }
    if (at - progressedAt >= stallMs)
      throw new StartFailed(
        `${target.name} made no progress for ${seconds(at - progressedAt)} (no CPU time, no output) and never answered ${target.url}: stopped. Its output is above.`,
      );
    if (at - reportedAt >= reportEveryMs) {
      reportedAt = at;
      const idle = at - progressedAt;
      report(
        `Waiting for ${target.name} to answer ${target.url} (${seconds(at - started)}${idle >= reportEveryMs ? `; no progress for ${seconds(idle)}` : ', working'})…`,
      );
    }
    await sleep(pollMs);
  }
}
