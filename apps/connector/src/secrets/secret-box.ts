// Secrets at rest (OAuth tokens, API keys, webhook secrets) are sealed as compact JWE
// (dir + A256GCM). The key id travels in the protected header, so keys can rotate: new values are
// sealed with the current key, old ones stay readable while their key is still configured.
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
  seal(plaintext: string): Promise<string>;
  open(sealed: string): Promise<string>;
  /** The key id a sealed value was written with. */
  keyIdOf(sealed: string): string;
}

export function createSecretBox(keys: SecretKey[], currentKeyId: string): SecretBox {
  const byId = new Map(keys.map((k) => [k.id, k]));
  for (const k of keys) {
    if (k.key.byteLength !== 32) throw new SecretBoxError(`key ${k.id} must be 32 bytes`);
  }
  const current = byId.get(currentKeyId);
  if (!current) throw new SecretBoxError(`current key ${currentKeyId} is not among the keys`);
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  function keyIdOf(sealed: string): string {
    try {
      const kid = decodeProtectedHeader(sealed).kid;
      if (typeof kid === 'string') return kid;
    } catch {
      // fall through to the error below
    }
    throw new SecretBoxError('not a sealed value');
  }

  return {
    keyIdOf,
    seal: (plaintext) =>
      new CompactEncrypt(encoder.encode(plaintext))
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid: current.id })
        .encrypt(current.key),
    async open(sealed) {
      const keyId = keyIdOf(sealed);
      const key = byId.get(keyId);
      if (!key) throw new SecretBoxError(`sealed with key ${keyId}, which is not configured`);
      try {
        const { plaintext } = await compactDecrypt(sealed, key.key, {
          keyManagementAlgorithms: ['dir'],
          contentEncryptionAlgorithms: ['A256GCM'],
        });
        return decoder.decode(plaintext);
      } catch {
        throw new SecretBoxError(`sealed value failed authentication under key ${keyId}`);
      }
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
