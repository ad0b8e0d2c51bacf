import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox, parseSecretKeys, SecretBoxError } from '../src/secrets/secret-box';

const k1 = { id: 'k1', key: new Uint8Array(randomBytes(32)) };
const k2 = { id: 'k2', key: new Uint8Array(randomBytes(32)) };

describe('secret box', () => {
  it('round-trips and does not contain the plaintext', async () => {
    const box = createSecretBox([k1], 'k1');
    const sealed = await box.seal('zd-access-token-123');
    expect(sealed).not.toContain('zd-access-token-123');
    expect(Buffer.from(sealed.split('.')[3] ?? '', 'base64url').toString()).not.toContain(
      'zd-access',
    );
    expect(await box.open(sealed)).toBe('zd-access-token-123');
    expect(box.keyIdOf(sealed)).toBe('k1');
  });

  it('seals two equal values differently', async () => {
    const box = createSecretBox([k1], 'k1');
    expect(await box.seal('same')).not.toBe(await box.seal('same'));
  });

  it('reads values sealed under an older key after rotation and writes with the new one', async () => {
    const old = await createSecretBox([k1], 'k1').seal('old secret');
    const rotated = createSecretBox([k1, k2], 'k2');
    expect(await rotated.open(old)).toBe('old secret');
    expect(rotated.keyIdOf(await rotated.seal('new'))).toBe('k2');
  });

  it('refuses a value whose key is gone, a tampered value and garbage', async () => {
    const sealed = await createSecretBox([k1], 'k1').seal('secret');
    await expect(createSecretBox([k2], 'k2').open(sealed)).rejects.toThrow(/k1.*not configured/);
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3] ?? '', 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    parts[3] = body.toString('base64url');
    await expect(createSecretBox([k1], 'k1').open(parts.join('.'))).rejects.toThrow(SecretBoxError);
    await expect(createSecretBox([k1], 'k1').open('not-a-jwe')).rejects.toThrow(
      /not a sealed value/,
    );
  });

  it('parses keys from the environment form and rejects short keys', () => {
    const keys = parseSecretKeys(
      `a:${Buffer.from(k1.key).toString('base64')}, b:${Buffer.from(k2.key).toString('base64')}`,
    );
    expect(keys.map((k) => k.id)).toEqual(['a', 'b']);
    expect(() => createSecretBox([{ id: 'x', key: new Uint8Array(16) }], 'x')).toThrow(/32 bytes/);
    expect(() => parseSecretKeys('nocolon')).toThrow(/<id>:/);
  });
});
