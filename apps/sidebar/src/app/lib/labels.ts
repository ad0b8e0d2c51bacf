import type { LookUp } from './i18n';

/** "very_hard" → "Very hard": an enum value no translation knows, still readable. */
export function humanize(value: string): string {
  const words = value.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The translated label of an enum value (prefix.value), else the value made readable. */
export function enumLabel(lookUp: LookUp, prefix: string, value: string): string {
  return lookUp(`${prefix}.${value}`) ?? humanize(value);
}
