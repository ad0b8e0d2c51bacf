// The first steps every webhook receiver shares: JSON content type (415), a bounded raw body (413
// through the error handler), and, only after the caller verified the bytes, parsing.
import express, { type RequestHandler } from 'express';
import { sendError } from './app-error';

const requireJson: RequestHandler = (req, res, next) => {
  if (!req.is('application/json')) {
    return sendError(res, 'unsupported_media_type', 'Content-Type must be application/json');
  }
  next();
};

export function rawJsonBody(limitBytes: number): RequestHandler[] {
  return [requireJson, express.raw({ type: () => true, limit: limitBytes })];
}

export function rawBodyOf(body: unknown): Buffer {
  return Buffer.isBuffer(body) ? body : Buffer.alloc(0);
}

/** The body as a JSON object, or null when it is not valid JSON or not an object. */
export function parseJsonObject(raw: Buffer): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(raw.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
