import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CompactEncrypt } from 'jose';
import { createSecretBox, parseSecretKeys, SecretBoxError } from '../src/secrets/secret-box';
import { secretBinding } from '../src/secrets/secret-bindings';

const k1 = { id: 'k1', key: new Uint8Array(randomBytes(32)) };
const k2 = { id: 'k2', key: new Uint8Array(randomBytes(32)) };
const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const here = secretBinding.zendeskAccessToken(A);

describe('secret box', () => {
  it('round-trips and does not contain the plaintext', async () => {
    const box = createSecretBox([k1], 'k1');
    const sealed = await box.seal('zd-access-token-123', here);
    expect(sealed).not.toContain('zd-access-token-123');
    expect(Buffer.from(sealed.split('.')[3] ?? '', 'base64url').toString()).not.toContain(
      'zd-access',
    );
    expect(await box.open(sealed, here)).toBe('zd-access-token-123');
    expect(box.keyIdOf(sealed)).toBe('k1');
  });

  it('seals two equal values differently', async () => {
    const box = createSecretBox([k1], 'k1');
    expect(await box.seal('same', here)).not.toBe(await box.seal('same', here));
  });

  it('reads values sealed under an older key after rotation and writes with the new one', async () => {
    const old = await createSecretBox([k1], 'k1').seal('old secret', here);
    const rotated = createSecretBox([k1, k2], 'k2');
    expect(await rotated.open(old, here)).toBe('old secret');
    expect(rotated.keyIdOf(await rotated.seal('new', here))).toBe('k2');
  });

  it('refuses a value whose key is gone, a tampered value and garbage', async () => {
    const sealed = await createSecretBox([k1], 'k1').seal('secret', here);
    await expect(createSecretBox([k2], 'k2').open(sealed, here)).rejects.toThrow(
      /k1.*not configured/,
    );
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3] ?? '', 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    parts[3] = body.toString('base64url');
    await expect(createSecretBox([k1], 'k1').open(parts.join('.'), here)).rejects.toThrow(
      SecretBoxError,
    );
    await expect(createSecretBox([k1], 'k1').open('not-a-jwe', here)).rejects.toThrow(
      /not a sealed value/,
    );
  });

  it('a value opens only where it was sealed: not in another account, not in another column', async () => {
    const box = createSecretBox([k1], 'k1');
    const sealed = await box.seal('token of A', here);
    await expect(box.open(sealed, secretBinding.zendeskAccessToken(B))).rejects.toThrow(
      /another account or column/,
    );
    await expect(box.open(sealed, secretBinding.zendeskRefreshToken(A))).rejects.toThrow(
      /another account or column/,
    );
    await expect(box.open(sealed, secretBinding.incidentApiKey(A))).rejects.toThrow(SecretBoxError);
    expect(await box.open(sealed, here)).toBe('token of A');
  });

  it('a value opened once (and kept) still opens nowhere else', async () => {
    const box = createSecretBox([k1], 'k1');
    const sealed = await box.seal('token of A', here);
    expect(await box.open(sealed, here)).toBe('token of A');
    expect(await box.open(sealed, here)).toBe('token of A');
    await expect(box.open(sealed, secretBinding.zendeskAccessToken(B))).rejects.toThrow(
      /another account or column/,
    );
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    await expect(box.open(tampered, here)).rejects.toThrow(/failed authentication/);
  });

  it('the binding is authenticated: a header rewritten to name another place fails the tag', async () => {
    const box = createSecretBox([k1], 'k1');
    const sealed = await box.seal('token of A', here);
    const moved = await box.seal('x', secretBinding.zendeskAccessToken(B));
    // B's header (its bnd) on A's ciphertext: the protected header is the additional data
    const forged = [moved.split('.')[0], ...sealed.split('.').slice(1)].join('.');
    await expect(box.open(forged, secretBinding.zendeskAccessToken(B))).rejects.toThrow(
      /failed authentication/,
    );
  });

  it('a value sealed before bindings opens only through openUnbound (the migration)', async () => {
    const box = createSecretBox([k1], 'k1');
    const legacy = await new CompactEncrypt(new TextEncoder().encode('old token'))
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid: 'k1' })
      .encrypt(k1.key);
    expect(box.isBound(legacy)).toBe(false);
    await expect(box.open(legacy, here)).rejects.toThrow(/not bound/);
    expect(await box.openUnbound(legacy)).toBe('old token');
    const bound = await box.seal('new token', here);
    expect(box.isBound(bound)).toBe(true);
    await expect(box.openUnbound(bound)).rejects.toThrow(/is bound/);
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
