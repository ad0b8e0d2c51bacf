// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  createLookUp,
  createTranslator,
  english,
  loadDictionary,
  localeCandidates,
  type Dictionary,
  type TranslationKey,
} from '../src/app/lib/i18n';

const dir = fileURLToPath(new URL('../src/translations/', import.meta.url));
const locales = readdirSync(dir).filter((f) => f.endsWith('.json'));

function flatten(dictionary: Dictionary, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(dictionary)) {
    if (typeof value === 'string') out[prefix + key] = value;
    else Object.assign(out, flatten(value, `${prefix}${key}.`));
  }
  return out;
}

const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('translations', () => {
  const en = flatten(english);

  it('ships English plus at least one more locale', () => {
    expect(locales).toContain('en.json');
    expect(locales.length).toBeGreaterThanOrEqual(2);
  });

  it.each(locales.filter((f) => f !== 'en.json'))(
    '%s has every English key, no extra key, and the same placeholders',
    (file) => {
      const other = flatten(JSON.parse(readFileSync(dir + file, 'utf8')) as Dictionary);
      expect(Object.keys(other).sort()).toEqual(Object.keys(en).sort());
      for (const [key, text] of Object.entries(other)) {
        expect(text.trim(), key).not.toBe('');
        expect(placeholders(text), key).toEqual(placeholders(en[key]!));
      }
    },
  );

  it('has the marketplace keys ZAF needs, for every parameter of the manifest', () => {
    const manifest = JSON.parse(
      readFileSync(fileURLToPath(new URL('../../../manifest.json', import.meta.url)), 'utf8'),
    ) as {
      parameters: { name: string }[];
    };
    for (const file of locales) {
      const flat = flatten(
        JSON.parse(readFileSync(`${dir}marketplace/${file}`, 'utf8')) as Dictionary,
      );
      for (const key of [
        'app.name',
        'app.description',
        'app.short_description',
        'app.long_description',
        'app.installation_instructions',
      ]) {
        expect(flat[key], `${file} ${key}`).toBeTruthy();
      }
      for (const { name } of manifest.parameters) {
        expect(flat[`app.parameters.${name}.label`], `${file} ${name}`).toBeTruthy();
        expect(flat[`app.parameters.${name}.helpText`], `${file} ${name}`).toBeTruthy();
      }
    }
  });

  it('falls back from region to language to English', async () => {
    expect(localeCandidates('fr-CA')).toEqual(['fr-ca', 'fr', 'en']);
    expect(localeCandidates('pt_BR')).toEqual(['pt-br', 'pt', 'en']);
    expect(localeCandidates(undefined)).toEqual(['en']);
    expect((await loadDictionary('fr-CA')).locale).toBe('fr');
    expect((await loadDictionary('de-AT')).locale).toBe('en');
  });

  it('falls back per key to English, then to the key, and interpolates variables', () => {
    const t = createTranslator({ common: { retry: 'Réessayer' } });
    expect(t('common.retry')).toBe('Réessayer');
    expect(t('common.cancel')).toBe('Cancel');
    expect(t('no.such.key' as TranslationKey)).toBe('no.such.key');
    expect(t('credits.remaining', { count: 3 })).toBe('3 credits left');
  });

  it('types the keys from en.json: a key it does not have fails the type check', () => {
    const t = createTranslator(english);
    // @ts-expect-error a typo is not a translation key (tsc fails if this line compiles)
    expect(t('common.retyr')).toBe('common.retyr');
    // @ts-expect-error a section is not a key, only its strings and plural entries are
    expect(t('common')).toBe('common');
    expect(t('credits.remaining', { count: 1 })).toBe('1 credit left');
    // keys built from values the app does not control go through lookUp, which says when none exists
    const lookUp = createLookUp(english);
    expect(lookUp('attempts.outcome.success')).toBe('Taken down');
    expect(lookUp('attempts.outcome.brand_new')).toBeNull();
  });

  it('fr: a narrow no-break space before : ; ? ! and inside « », as French typography wants', () => {
    const fr = flatten(JSON.parse(readFileSync(`${dir}fr.json`, 'utf8')) as Dictionary);
    const NNBSP = '\u202f';
    for (const [key, text] of Object.entries(fr)) {
      // a colon in a URL scheme or between digits (a time) is not punctuation
      const marks = [...text.matchAll(/[;?!»]|:(?!\/\/)(?!\d)/g)];
      for (const mark of marks) {
        const before = text[mark.index - 1];
        expect([key, mark[0], before], text).toEqual([key, mark[0], NNBSP]);
      }
      for (const open of text.matchAll(/«/g))
        expect([key, text[open.index + 1]], text).toEqual([key, NNBSP]);
    }
    expect(fr['card.incidentIdLabel']).toBe(`ID de l’incident${NNBSP}:`);
  });
});
