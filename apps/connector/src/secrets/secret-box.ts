// Secrets at rest (OAuth tokens, API keys, webhook secrets) are sealed as compact JWE
// (dir + A256GCM). The key id travels in the protected header, so keys can rotate: new values are
// sealed with the current key, old ones stay readable while their key is still configured.
//
// Each value is bound to where it lives (its account and column, see secret-bindings.ts): the
// protected header carries `bnd`, the SHA-256 of that binding. The protected header is the JWE's
// additional authenticated data, so `bnd` cannot be changed without failing the tag, and open()
// refuses a value whose `bnd` is not the binding of the place it was read from: a sealed value
// copied to another account's row, or to another column, does not open. (Compact JWE has no
// separate `aad` member; the protected header is how it authenticates extra data.)
import { createHash } from 'node:crypto';
import { CompactEncrypt, compactDecrypt, decodeProtectedHeader } from 'jose';

export interface SecretKey {
  id: string;
  /** 32 bytes. */
  key: Uint8Array;
}

export class SecretBoxError extends Error {
  override name = 'SecretBoxError';
}

export interface SecretBox {
  /** Seals a value for one place (`binding`, from secret-bindings.ts). */
  seal(plaintext: string, binding: string): Promise<string>;
  /** Opens a value read from the place `binding` names; refuses one sealed for another place. */
  open(sealed: string, binding: string): Promise<string>;
  /** The key id a sealed value was written with. */
  keyIdOf(sealed: string): string;
  /** False for a value sealed before bindings existed (reseal-unbound.ts migrates them). */
  isBound(sealed: string): boolean;
  /** Opens a value sealed before bindings existed; refuses a bound one. Only for the migration. */
  openUnbound(sealed: string): Promise<string>;
}

const bindingHash = (binding: string) => createHash('sha256').update(binding).digest('base64url');

/**
 * Values opened lately, by binding and sealed text: every delivery and job opens the same few
 * secrets, and each opening is a WebCrypto call. A sealed value never changes, so neither does
 * what it opens to in its place.
 */
const OPENED_KEPT = 2_000;

export function createSecretBox(keys: SecretKey[], currentKeyId: string): SecretBox {
  const byId = new Map(keys.map((k) => [k.id, k]));
  for (const k of keys) {
    if (k.key.byteLength !== 32) throw new SecretBoxError(`key ${k.id} must be 32 bytes`);
  }
  const current = byId.get(currentKeyId);
  if (!current) throw new SecretBoxError(`current key ${currentKeyId} is not among the keys`);
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const opened = new Map<string, string>();

  function remember(key: string, plaintext: string): void {
    if (opened.size >= OPENED_KEPT) opened.delete(opened.keys().next().value!);
    opened.set(key, plaintext);
  }

  function keyIdOf(sealed: string): string {
    try {
      const kid = decodeProtectedHeader(sealed).kid;
      if (typeof kid === 'string') return kid;
    } catch {
      // fall through to the error below
    }
    throw new SecretBoxError('not a sealed value');
  }

  function bindingOf(sealed: string): unknown {
    try {
      return decodeProtectedHeader(sealed).bnd;
    } catch {
      throw new SecretBoxError('not a sealed value');
    }
  }

  /** Decrypts and authenticates (header included); returns the plaintext and the header's bnd. */
  async function decrypt(sealed: string): Promise<{ plaintext: string; bnd: unknown }> {
    const keyId = keyIdOf(sealed);
    const key = byId.get(keyId);
    if (!key) throw new SecretBoxError(`sealed with key ${keyId}, which is not configured`);
    try {
      const { plaintext, protectedHeader } = await compactDecrypt(sealed, key.key, {
        keyManagementAlgorithms: ['dir'],
        contentEncryptionAlgorithms: ['A256GCM'],
      });
      return { plaintext: decoder.decode(plaintext), bnd: protectedHeader.bnd };
    } catch {
      throw new SecretBoxError(`sealed value failed authentication under key ${keyId}`);
    }
  }

  return {
    keyIdOf,
    seal: (plaintext, binding) =>
      new CompactEncrypt(encoder.encode(plaintext))
        .setProtectedHeader({
          alg: 'dir',
          enc: 'A256GCM',
          kid: current.id,
          bnd: bindingHash(binding),
        })
        .encrypt(current.key),
    async open(sealed, binding) {
      const key = `${binding}\u0000${sealed}`;
      const known = opened.get(key);
      if (known !== undefined) return known;
      const { plaintext, bnd } = await decrypt(sealed);
      if (bnd === undefined) {
        throw new SecretBoxError('sealed value is not bound to its place yet (reseal it)');
      }
      if (bnd !== bindingHash(binding)) {
        throw new SecretBoxError('sealed value belongs to another account or column');
      }
      remember(key, plaintext);
      return plaintext;
    },
    isBound: (sealed) => bindingOf(sealed) !== undefined,
    async openUnbound(sealed) {
      const opened = await decrypt(sealed);
      if (opened.bnd !== undefined) throw new SecretBoxError('sealed value is bound');
      return opened.plaintext;
    },
  };
}

/**
 * Parses `SECRETS_KEYS` of the form `id1:base64key,id2:base64key`; the first is current unless
 * `currentKeyId` names another.
 */
export function parseSecretKeys(spec: string): SecretKey[] {
  return spec
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const separator = part.indexOf(':');
      if (separator <= 0)
        throw new SecretBoxError('each key is written as <id>:<base64 of 32 bytes>');
      const key = Buffer.from(part.slice(separator + 1), 'base64');
      return { id: part.slice(0, separator), key: new Uint8Array(key) };
    });
}
