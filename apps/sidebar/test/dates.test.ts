// @vitest-environment node
// West of UTC, for the process too: a date-only value must not move whatever the host's zone.
process.env.TZ = 'America/Los_Angeles';
import { describe, expect, it } from 'vitest';
import { createDateFormatters } from '../src/app/lib/dates';
import { createTranslator, english } from '../src/app/lib/i18n';
import fr from '../src/translations/fr.json';

describe('formatDate (calendar dates)', () => {
  const { formatDate } = createDateFormatters('en-US', 'America/Los_Angeles');
  it.each([
    ['2026-10-30', 'Oct 30, 2026'],
    ['2026-10-30T00:00:00.000Z', 'Oct 30, 2026'],
    ['2026-10-30T23:30:00-08:00', 'Oct 30, 2026'],
    ['2026-01-01', 'Jan 1, 2026'],
  ])('%s reads %s', (value, text) => {
    expect(formatDate(value)).toBe(text);
  });

  it.each([null, undefined, '', 'not a date', '2026-13-45'])('%j reads as nothing', (value) => {
    expect(formatDate(value)).toBeNull();
  });
});

describe('plurals and numbers', () => {
  it.each([
    ['en', 0, '0 credits left'],
    ['en', 1, '1 credit left'],
    ['en', 2, '2 credits left'],
  ])('%s %s', (_, count, text) => {
    expect(createTranslator(english, 'en')('credits.remaining', { count })).toBe(text);
  });

  it('uses the language’s plural rules and the agent’s number format', () => {
    const t = createTranslator(fr, 'fr', 'fr-FR');
    expect(t('credits.remaining', { count: 1 })).toBe('1 crédit restant');
    expect(t('credits.remaining', { count: 0 })).toBe('0 crédit restant');
    expect(t('credits.remaining', { count: 1500 })).toBe('1\u202f500 crédits restants');
  });

  it('falls back to the English plural forms for a key a locale lacks', () => {
    const t = createTranslator({}, 'fr');
    expect(t('credits.remaining', { count: 1 })).toBe('1 credit left');
  });
});
