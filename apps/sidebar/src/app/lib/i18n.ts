import en from '../../translations/en.json';

export type Dictionary = { [key: string]: string | Dictionary };
type Vars = Record<string, string | number>;

/** A plural entry: CLDR categories (one, few, many, other...), looked up as one key. */
type PluralForms = { other: string };
type KeysOf<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string
    ? `${Prefix}${K}`
    : T[K] extends PluralForms
      ? `${Prefix}${K}`
      : KeysOf<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** Every key en.json has: a key it does not have (a typo) fails the type check. */
export type TranslationKey = KeysOf<typeof en>;

/** Translates a key en.json has. */
export type Translate = (key: TranslationKey, vars?: Vars) => string;
/**
 * Translates a key built from a value the app does not control (a service's enum value, an
 * action's optional wording), or answers null when no translation has it: the caller decides.
 */
export type LookUp = (key: string, vars?: Vars) => string | null;

export const english = en as Dictionary;

function lookup(
  dictionary: Dictionary,
  key: string,
  count: number | undefined,
  rules: Intl.PluralRules,
) {
  let node: string | Dictionary | undefined = dictionary;
  for (const part of key.split('.')) {
    if (typeof node !== 'object') return undefined;
    node = node[part];
  }
  if (typeof node === 'string') return node;
  // A plural entry is a dictionary of CLDR categories (one, few, many, other...).
  if (node && typeof node === 'object' && typeof node.other === 'string') {
    const category = count === undefined ? 'other' : rules.select(count);
    const form = node[category];
    return typeof form === 'string' ? form : node.other;
  }
  return undefined;
}

function safeLocale(locale: string): string {
  try {
    return Intl.PluralRules.supportedLocalesOf([locale]).length ? locale : 'en';
  } catch {
    return 'en';
  }
}

/**
 * Per-key fallback to English, then to the key itself, so a partial locale never shows blanks.
 * Plurals follow the language of the strings (Intl.PluralRules); numbers the agent's locale.
 */
export function createLookUp(dictionary: Dictionary, locale = 'en', numberLocale = locale): LookUp {
  const rules = new Intl.PluralRules(safeLocale(locale));
  const englishRules = new Intl.PluralRules('en');
  const numbers = new Intl.NumberFormat(safeLocale(numberLocale));
  return (key, vars) => {
    const count = typeof vars?.count === 'number' ? vars.count : undefined;
    const template =
      lookup(dictionary, key, count, rules) ?? lookup(english, key, count, englishRules);
    if (template === undefined) return null;
    if (!vars) return template;
    return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) => {
      const value = vars[name];
      if (value === undefined) return match;
      return typeof value === 'number' ? numbers.format(value) : value;
    });
  };
}

export function createTranslator(
  dictionary: Dictionary,
  locale = 'en',
  numberLocale = locale,
): Translate {
  const look = createLookUp(dictionary, locale, numberLocale);
  return (key, vars) => look(key, vars) ?? key;
}

// Vite splits each non-English locale into its own chunk, loaded only when an agent needs it.
const loaders = import.meta.glob<Dictionary>(
  ['../../translations/*.json', '!../../translations/en.json'],
  {
    import: 'default',
  },
);

/** Candidates for a Zendesk locale such as "fr-CA" or "pt-br": exact, then language, then en. */
export function localeCandidates(locale: string | undefined): string[] {
  const normalised = (locale ?? '').trim().toLowerCase().replace('_', '-');
  const language = normalised.split('-')[0] ?? '';
  return [...new Set([normalised, language, 'en'].filter(Boolean))];
}

export async function loadDictionary(
  locale: string | undefined,
): Promise<{ locale: string; dictionary: Dictionary }> {
  for (const candidate of localeCandidates(locale)) {
    if (candidate === 'en') break;
    const loader = Object.entries(loaders).find(([p]) =>
      p.toLowerCase().endsWith(`/${candidate}.json`),
    )?.[1];
    if (!loader) continue;
    try {
      return { locale: candidate, dictionary: await loader() };
    } catch {
      // a chunk that fails to load falls back to the next candidate, ultimately English
    }
  }
  return { locale: 'en', dictionary: english };
}
