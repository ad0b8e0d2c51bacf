// The demo starts with the sandboxes (npm start launches them first, but a restart of one may
// still be on its way): wait until each answers its readiness endpoint.

export async function waitForReady(
  name: string,
  baseUrl: string,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const intervalMs = options.intervalMs ?? 250;
  const deadline = Date.now() + timeoutMs;
  let lastProblem = 'no answer';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${baseUrl}/_sandbox/ready`, {
        signal: AbortSignal.timeout(2_000),
      });
      if (response.ok) return;
      lastProblem = `HTTP ${response.status}`;
    } catch (error) {
      lastProblem = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(
    `${name} at ${baseUrl} is not ready after ${timeoutMs / 1000} s (${lastProblem})`,
  );
}
