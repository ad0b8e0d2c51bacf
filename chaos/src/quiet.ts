// Setup asks both services for test deliveries; a baseline taken while they still arrive would
// count them as the run's. Quiet: both sandboxes idle and the counts unchanged for a second.
import type { ChaosStack } from './stack';

export async function waitForQuiet(stack: ChaosStack, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  let stableSince = Date.now();
  for (;;) {
    await stack.incidentSandbox.idle();
    await stack.zendeskSandbox.webhooksIdle();
    const now = JSON.stringify(await stack.counts());
    if (now !== last) {
      last = now;
      stableSince = Date.now();
    } else if (Date.now() - stableSince >= 1_000) {
      return;
    }
    if (Date.now() > deadline) throw new Error(`deliveries still arriving after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
