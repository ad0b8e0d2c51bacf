import type { Request } from 'express';
import { badRequest } from './errors';

/** The query string as single string values; a repeated parameter is a validation failure. */
export function singleValuedQuery(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.query)) {
    if (typeof value !== 'string') throw badRequest(name, 'must be given once, as a string');
    out[name] = value;
  }
  return out;
}

export function parseIntegerParam(
  name: string,
  raw: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^-?\d+$/.test(raw.trim()))
    throw badRequest(name, `must be a whole number between ${min} and ${max}`);
  const value = Number(raw);
  if (value < min || value > max)
    throw badRequest(name, `must be a whole number between ${min} and ${max}`);
  return value;
}

export function parseBooleanParam(name: string, raw: string | undefined): boolean | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw badRequest(name, 'must be true or false');
}

const ISO_DATE =
  /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

export function parseDateParam(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const ms = Date.parse(raw);
  if (!ISO_DATE.test(raw) || Number.isNaN(ms)) throw badRequest(name, 'must be an ISO 8601 date');
  return new Date(ms).toISOString();
}
