// Waits until the account's Zendesk requests (the sandbox's count) stop moving: the connector has
// written what it had to. A count still moving is progress, so there is no time limit, only a
// backstop for a connector that never stops: past it the count is taken as it is, unsettled.
import { progress } from '../../../scripts/bench-support';
import type { SandboxControls } from './linked-tickets';

const BACKSTOP_MS = 20 * 60_000;
const POLL_MS = 200;

/** The account's Support API request count once it has not moved for `quietMs`. */
export async function untilZendeskQuiet(
  controls: SandboxControls,
  quietMs: number,
  what: string,
): Promise<{ total: number; settled: boolean }> {
  const startedAt = Date.now();
  let last = -1;
  let since = Date.now();
  const restore = progress.doing(
    () =>
      `${what}: ${Math.max(0, last)} requests so far, waiting for ${quietMs / 1000} s without one`,
  );
  try {
    for (;;) {
      const { total } = await controls.apiRequests();
      if (total !== last) {
        last = total;
        since = Date.now();
      } else if (Date.now() - since >= quietMs) {
        return { total, settled: true };
      }
      if (Date.now() - startedAt > BACKSTOP_MS) return { total, settled: false };
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    restore();
  }
}
