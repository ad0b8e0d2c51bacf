// Every text of the admin page exists in both languages, and the French one is French: a key
// missing in French, or an English text copied into the French messages, fails here.
import { describe, expect, it } from 'vitest';
import { en } from '../src/i18n/en';
import { fr } from '../src/i18n/fr';

type Leaf = { path: string; value: unknown };

function leavesOf(value: unknown, path = ''): Leaf[] {
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([key, inner]) =>
      leavesOf(inner, path ? `${path}.${key}` : key),
    );
  return [{ path, value }];
}

/** A sample argument any text function takes: reads as "7", compares as 7, and is truthy. */
// eslint-disable-next-line @typescript-eslint/no-wrapper-object-types
const SAMPLE: String = new String('7');

/** What a text reads as: a function called with the sample argument for each parameter. */
const rendered = (value: unknown) =>
  typeof value === 'function'
    ? String((value as (...args: unknown[]) => unknown)(...Array(value.length).fill(SAMPLE)))
    : String(value);

/** Texts that read the same in both languages (names, numbers, borrowed words). */
const SAME_IN_BOTH = new Set([
  'connection.webhooks',
  'connection.client',
  'deadLetters.incident',
  'failedSync.party.zendesk',
  'failedSync.httpStatus',
  'analytics.hours',
  'analytics.part.incidents',
  'analytics.waitingColumns.0',
  'analytics.waitingColumns.1',
  'analytics.waitingColumns.4',
]);

describe('the admin page’s messages', () => {
  const english = leavesOf(en);
  const french = leavesOf(fr);

  it('has every English key in French and no key French alone has', () => {
    expect(french.map((leaf) => leaf.path).sort()).toEqual(english.map((leaf) => leaf.path).sort());
  });

  it('has the same kind of text in both (a sentence, or a sentence built from values)', () => {
    const kindOf = new Map(french.map((leaf) => [leaf.path, typeof leaf.value]));
    for (const leaf of english)
      expect([leaf.path, kindOf.get(leaf.path)]).toEqual([leaf.path, typeof leaf.value]);
  });

  it('says every text in French, not in English', () => {
    const frenchText = new Map(french.map((leaf) => [leaf.path, rendered(leaf.value)]));
    const copied = english
      .filter((leaf) => !SAME_IN_BOTH.has(leaf.path))
      .filter((leaf) => rendered(leaf.value) === frenchText.get(leaf.path))
      .map((leaf) => leaf.path);
    expect(copied).toEqual([]);
  });
});
