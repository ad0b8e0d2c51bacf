import { ZendeskRequestValidationError } from './errors';

/**
 * Tagged template that percent-encodes every interpolated path segment:
 * encodePath`/api/v2/tickets/${id}.json`. Dot segments are refused because URL
 * normalisation would turn `../` into a different endpoint.
 */
export function encodePath(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  return strings.reduce((path, literal, index) => {
    if (index === 0) return literal;
    const value = String(values[index - 1]);
    if (value === '' || value === '.' || value === '..') {
      throw new ZendeskRequestValidationError(`Invalid path segment ${JSON.stringify(value)}`);
    }
    return path + encodeURIComponent(value) + literal;
  }, '');
}

export type QueryValue = string | number | boolean | undefined;

/** Encodes with %20 rather than `+` so search queries survive any server's decoder. */
export function encodeQuery(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const pairs = Object.entries(query)
    .filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}
