import en from '../../translations/en.json';

export type Dictionary = { [key: string]: string | Dictionary };
export type TranslationKey = string;
export type Vars = Record<string, string | number>;

export const english = en as Dictionary;

function lookup(dictionary: Dictionary, key: string): string | undefined {
  let node: string | Dictionary | undefined = dictionary;
  for (const part of key.split('.')) {
    if (typeof node !== 'object') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** Per-key fallback to English, then to the key itself, so a partial locale never shows blanks. */
export function createTranslator(dictionary: Dictionary) {
  return (key: TranslationKey, vars?: Vars): string => {
    const template = lookup(dictionary, key) ?? lookup(english, key) ?? key;
    if (!vars) return template;
    return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) =>
      vars[name] === undefined ? match : String(vars[name]),
    );
  };
}

// Vite splits each non-English locale into its own chunk, loaded only when an agent needs it.
const loaders = import.meta.glob<Dictionary>(
  ['../../translations/*.json', '!../../translations/en.json'],
  {
    import: 'default',
  },
);

export const availableLocales = [
  'en',
  ...Object.keys(loaders).map((p) => p.replace(/^.*\/(.+)\.json$/, '$1')),
];

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
