/** A step failure as an admin should read it: the API's own description when there is one. */
export function stepErrorMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const described = error as Error & {
    status?: unknown;
    description?: unknown;
    serviceMessage?: unknown;
  };
  const detail = [described.description, described.serviceMessage].find(
    (value): value is string => typeof value === 'string' && value !== '',
  );
  const status = typeof described.status === 'number' ? ` (HTTP ${described.status})` : '';
  return detail && !error.message.includes(detail)
    ? `${error.message}: ${detail}${status}`
    : `${error.message}${status}`;
}
