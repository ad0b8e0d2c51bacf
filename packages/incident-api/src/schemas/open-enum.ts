import { z } from 'zod';

/**
 * A vocabulary the service may extend: the known values stay visible to the type checker
 * (autocomplete, exhaustive switches with a default) while any other string still parses,
 * because a new value on the wire must never make a whole response unreadable.
 */
export type OpenEnum<T extends string> = T | (string & {});

export function openEnum<const T extends readonly [string, ...string[]]>(
  _knownValues: T,
): z.ZodType<OpenEnum<T[number]>, OpenEnum<T[number]>> {
  return z.string() as unknown as z.ZodType<OpenEnum<T[number]>, OpenEnum<T[number]>>;
}

export function isKnownValue<const T extends readonly string[]>(
  values: T,
  value: string,
): value is T[number] {
  return (values as readonly string[]).includes(value);
}
