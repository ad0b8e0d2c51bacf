import type { ErrorRequestHandler } from 'express';

/** An error answered with the service's envelope: `{ message }` and the given status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** More fields of the answer beside `message` (e.g. the allowed next statuses of a 409). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const badRequest = (field: string, problem: string) =>
  new HttpError(400, `Invalid parameter '${field}': ${problem}`);

export const notFound = (what = 'Incident') => new HttpError(404, `${what} not found`);

export const UNAUTHORIZED_CLIENT = 'Unauthorized. Please ensure client ID is valid.';

export const errorHandler: ErrorRequestHandler = (err: unknown, _req, res, _next) => {
  if (err instanceof HttpError) {
    res
      .set(err.headers)
      .status(err.status)
      .json({ message: err.message, ...err.details });
    return;
  }
  const e = err as { type?: string; status?: number; message?: string };
  if (e.type === 'entity.parse.failed') {
    res.status(400).json({ message: "Invalid parameter 'body': malformed JSON" });
    return;
  }
  if (e.type === 'entity.too.large' || e.status === 413) {
    res.status(413).json({ message: 'Request entity too large' });
    return;
  }
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    res.status(e.status).json({ message: e.message ?? 'Bad request' });
    return;
  }
  console.error('[incident-sandbox] unexpected error', err);
  res.status(500).json({ message: 'Internal server error' });
};
