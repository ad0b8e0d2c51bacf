import { createHash, randomBytes } from 'node:crypto';

/** Deterministic opaque identifier: the same counter always yields the same id, so seeds are reproducible. */
export function opaqueId(kind: string, n: number, length: number): string {
  return createHash('sha1').update(`${kind}:${n}`).digest('hex').slice(0, length);
}

export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}
