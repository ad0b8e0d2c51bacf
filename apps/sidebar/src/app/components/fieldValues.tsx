// Values of a `Fields` list. Each answers null for a value the service did not send, so `Fields`
// leaves the row out instead of showing a label with nothing after it.
import type { ReactNode } from 'react';
import { DateTime } from './DateTime';
import { DefangedProse, DefangedText } from './DefangedText';
import { TriState } from './TriState';
import { Breakable } from './layout';

/** A value that is there, rendered; nothing for one that is absent. */
export const ifSent = <T,>(value: T | undefined, render: (value: T) => ReactNode): ReactNode =>
  value === undefined ? null : render(value);

/** Yes, no, or undetermined (null). */
export const yesNo = (value: boolean | null | undefined) =>
  ifSent(value, (sent) => <TriState value={sent} />);

/** A date without its time; null (or a date that does not parse) reads as undetermined. */
export const day = (value: string | null | undefined) =>
  value === ''
    ? null
    : ifSent(value, (sent) => <DateTime dateOnly value={sent} unknownKey="common.undetermined" />);

/** A number; null reads as `undetermined`. */
export const count = (value: number | null | undefined, undetermined: string) =>
  ifSent(value, (sent) => (sent === null ? undetermined : String(sent)));

/** Attacker-controlled text as a single defanged value (a host, a URL, an address). */
export const defanged = (value: string | null | undefined) =>
  value ? <DefangedText value={value} /> : null;

/** Attacker-controlled prose (a name, a title): words kept, links within defanged. */
export const prose = (value: string | null | undefined) =>
  value ? <DefangedProse text={value} /> : null;

/** Plain text that may be long and unbroken (a hash, a description). */
export const breakable = (value: string | null | undefined) =>
  value ? <Breakable>{value}</Breakable> : null;

/** Items separated by `separator`, each rendered by `render`; nothing for none. */
export const joined = <T,>(
  items: readonly T[] | undefined,
  render: (item: T) => ReactNode,
  separator = ', ',
) =>
  items && items.length > 0 ? (
    <Breakable>
      {items.map((item, i) => (
        <span key={i}>
          {i > 0 ? separator : ''}
          {render(item)}
        </span>
      ))}
    </Breakable>
  ) : null;

/** Values separated by commas, each defanged when asked. */
export const textList = (values: readonly string[] | undefined, defang = false) =>
  joined(values, (value) => (defang ? <DefangedText value={value} /> : value));
