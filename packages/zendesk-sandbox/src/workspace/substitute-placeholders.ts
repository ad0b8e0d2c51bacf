const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

/** Replaces `{{setting.NAME}}` / `{{jwt.token}}`; a placeholder with no value is left as written. */
export function substitute(text: string, values: ReadonlyMap<string, string>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => values.get(name) ?? whole);
}

/** The same through every string of a JSON-like value. */
export function substituteDeep(value: unknown, values: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return substitute(value, values);
  if (Array.isArray(value)) return value.map((v) => substituteDeep(v, values));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, substituteDeep(v, values)]),
    );
  }
  return value;
}

export function settingValues(settings: Record<string, unknown>): Map<string, string> {
  const values = new Map<string, string>();
  for (const [name, value] of Object.entries(settings)) {
    if (value !== undefined && value !== null) values.set(`setting.${name}`, String(value));
  }
  return values;
}
