// What a delivery must be before it joins a group write (inbox.ts): PostgreSQL text and jsonb
// cannot hold NUL (22P05 for `\u0000` in jsonb, 22021 in text) or lone UTF-16 surrogates, and
// JSON nested a few thousand deep overflows JSON.stringify and PostgreSQL's parser. One such
// delivery used to fail the whole group, and every other account's delivery in it, forever.
//
// NUL and lone surrogates are replaced by U+FFFD in what is stored and queued, and the receipt
// keeps the exact bytes received beside it: the delivery is accepted and nothing of it is lost
// (an incident event whose history text carries a NUL still moves its ticket). Nesting deeper
// than any real event is refused: nothing could process it, so the sender is told (422).

const MAX_PAYLOAD_DEPTH = 64;

export type UnstorableReason = 'payload_too_deep' | 'unstorable_payload';

/** The delivery itself cannot be stored; answered 4xx, never retried by the sender. */
export class UnstorableDeliveryError extends Error {
  override name = 'UnstorableDeliveryError';
  constructor(
    readonly reason: UnstorableReason,
    message: string,
  ) {
    super(message);
  }
}

// eslint-disable-next-line no-control-regex -- NUL is what is looked for
const UNSTORABLE_TEXT = /[\u0000\ud800-\udfff]/;
// eslint-disable-next-line no-control-regex -- NUL is what is looked for
const NUL = /\u0000/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The text with NUL and lone surrogates replaced by U+FFFD (the same string when there are none). */
export function storableText(text: string): string {
  if (!UNSTORABLE_TEXT.test(text)) return text;
  return text.replace(NUL, '\ufffd').replace(LONE_SURROGATE, '\ufffd');
}

/**
 * A copy of a JSON value whose every string, keys included, is storable, and whether anything had
 * to change. Throws UnstorableDeliveryError past `maxDepth` levels of arrays and objects.
 */
export function storableJson(
  value: unknown,
  maxDepth = MAX_PAYLOAD_DEPTH,
): { value: unknown; changed: boolean } {
  let changed = false;
  const copy = (item: unknown, depth: number): unknown => {
    if (typeof item === 'string') {
      const text = storableText(item);
      if (text !== item) changed = true;
      return text;
    }
    if (typeof item !== 'object' || item === null) return item;
    if (depth >= maxDepth) {
      throw new UnstorableDeliveryError(
        'payload_too_deep',
        `the payload nests deeper than ${maxDepth} levels`,
      );
    }
    if (Array.isArray(item)) return item.map((element) => copy(element, depth + 1));
    const withJson = item as { toJSON?: () => unknown };
    if (typeof withJson.toJSON === 'function') return copy(withJson.toJSON(), depth);
    const out: Record<string, unknown> = {};
    for (const [key, element] of Object.entries(item)) {
      const storableKey = storableText(key);
      if (storableKey !== key) changed = true;
      out[storableKey] = copy(element, depth + 1);
    }
    return out;
  };
  return { value: copy(value, 0), changed };
}

/**
 * A database error caused by the entry's own values (data exception, integrity violation, a
 * limit exceeded) rather than by the database being unavailable.
 */
export function isEntryFault(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return /^(22|23|54)/.test(code);
  return error instanceof RangeError || error instanceof TypeError;
}

/** The SQLSTATE of a database error, for a log line or a refusal that must not quote values. */
export function sqlStateOf(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : null;
}
