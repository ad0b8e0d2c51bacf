import type { ErrorRequestHandler, Response } from 'express';

/** Every error answer has the same body: a stable code and a message a person can act on. */
export function sendError(res: Response, status: number, code: string, message: string): void {
  res.status(status).json({ error: { code, message } });
}

/**
 * The database cannot take the delivery right now (e.g. PostgreSQL restarting). Zendesk retries a
 * webhook only on 409, or on 429/503 carrying Retry-After, so the 503 always carries it.
 */
export function sendUnavailable(res: Response, message: string, retryAfterSeconds = 10): void {
  res.setHeader('Retry-After', String(retryAfterSeconds));
  sendError(res, 503, 'unavailable', message);
}

/** Body-parser failures (size, encoding) and anything unexpected, answered without a stack. */
export const errorHandler: ErrorRequestHandler = (error, _req, res, _next) => {
  const status = typeof error?.status === 'number' ? (error.status as number) : 500;
  if (status === 413) return sendError(res, 413, 'payload_too_large', 'request body is too large');
  if (status >= 400 && status < 500) {
    return sendError(res, status, 'bad_request', 'request could not be read');
  }
  console.error('unhandled request error:', error);
  sendError(res, 500, 'internal_error', 'internal error');
};
