import { z } from 'zod';

// Building blocks of the strict writer schemas. Every message names the field and the rule, so a
// rejected request can be shown as is. Query fields also accept the string form a query string
// carries ("25", "true"), so the incident sandbox validates incoming requests with the same schemas.

export const nonEmptyString = (field: string) =>
  z.string({ error: `${field} must be a string` }).min(1, { error: `${field} must not be empty` });

export const notBlank = (value: string) => value.trim().length > 0;

const coerceQueryNumber = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))
    ? Number(value)
    : value;

const coerceQueryBoolean = (value: unknown) =>
  value === 'true' ? true : value === 'false' ? false : value;

export const wholeNumberParam = (field: string, min: number, max?: number) => {
  const rule =
    max === undefined
      ? `${field} must be a whole number of at least ${min}`
      : `${field} must be a whole number from ${min} to ${max}`;
  const base = z.number({ error: rule }).int({ error: rule }).min(min, { error: rule });
  return z.preprocess(coerceQueryNumber, max === undefined ? base : base.max(max, { error: rule }));
};

export const booleanParam = (field: string) =>
  z.preprocess(coerceQueryBoolean, z.boolean({ error: `${field} must be true or false` }));

const ISO_8601 =
  /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

export const isIso8601 = (value: string) =>
  ISO_8601.test(value) && !Number.isNaN(Date.parse(value));

export const isoDateParam = (field: string) =>
  z.string({ error: `${field} must be an ISO 8601 date string` }).refine(isIso8601, {
    error: `${field} must be an ISO 8601 date, e.g. 2026-01-31T00:00:00.000Z`,
  });

export const enumParam = <const T extends readonly [string, ...string[]]>(
  field: string,
  values: T,
) => z.enum(values, { error: `${field} must be one of ${values.join(', ')}` });

/**
 * Cross-field rules run even when a single field already failed, so one answer names every
 * problem; the rule code must therefore tolerate wrongly typed values.
 */
export const crossFieldRules = {
  when: (payload: { value: unknown }) =>
    typeof payload.value === 'object' && payload.value !== null,
};

/** A parameter that exists on a sibling endpoint but must never be sent here. */
export const forbiddenParam = (rule: string) => z.never({ error: rule }).optional();

/** Strict object whose unknown-key and wrong-type messages name the request. */
export const strictRequest = <S extends z.ZodRawShape>(what: string, shape: S) =>
  z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === 'unrecognized_keys') {
        const keys = issue.keys.join(', ');
        return `${keys} ${issue.keys.length > 1 ? 'are not fields' : 'is not a field'} of ${what}`;
      }
      if (issue.code === 'invalid_type') return `${what} must be an object`;
      return undefined;
    },
  });

export const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
};

const DOMAIN_NAME =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/i;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** A report's `url` is a URL or a bare domain, optionally with a path ("example.com/login"). */
export const isUrlOrDomain = (value: string) => {
  if (/\s/.test(value) || value === '') return false;
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value);
  if (hasScheme) return isHttpUrl(value);
  try {
    const parsed = new URL(`http://${value}`);
    // "name@host" without a scheme is an email address, not a domain
    if (parsed.username !== '' || parsed.password !== '') return false;
    // hostname is in ASCII form: an internationalised name (пример.рф) arrives as xn-- labels
    const host = parsed.hostname;
    return DOMAIN_NAME.test(host) || IPV4.test(host);
  } catch {
    return false;
  }
};
