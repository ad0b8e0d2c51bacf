// The keys that seal stored secrets: SECRETS_KEYS, or outside production a generated key kept in
// a file across restarts.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { TEnv } from './config-env';
import { fail } from './config-error';
import { DEFAULT_RUNTIME_PATHS } from './runtime-paths';
import { parseSecretKeys, type SecretKey } from '../secrets';

export interface SecretsConfig {
  keys: SecretKey[];
  currentKeyId: string;
}

const ZKeysFile = z.object({
  currentKeyId: z.string().min(1),
  keys: z.array(z.object({ id: z.string().min(1), key: z.string().min(1) })).min(1),
});

/** Development only: one generated key, kept across restarts so sealed values stay readable. */
function developmentKeys(file: string, log: (message: string) => void): SecretsConfig {
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    const stored = {
      currentKeyId: 'dev-1',
      keys: [{ id: 'dev-1', key: randomBytes(32).toString('base64') }],
    };
    writeFileSync(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
    log(
      `SECRETS_KEYS is not set: generated a development key in ${file} (never use it in production)`,
    );
  }
  const parsed = ZKeysFile.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) fail([`${file}: not a key file (${z.prettifyError(parsed.error)})`]);
  return {
    currentKeyId: parsed.data.currentKeyId,
    keys: parsed.data.keys.map((k) => ({
      id: k.id,
      key: new Uint8Array(Buffer.from(k.key, 'base64')),
    })),
  };
}

export function secretsOf(
  env: TEnv,
  production: boolean,
  development: { secretKeysFile?: string; log?: (message: string) => void },
): SecretsConfig {
  if (!env.SECRETS_KEYS) {
    if (production) fail(['SECRETS_KEYS: required when NODE_ENV=production']);
    return developmentKeys(
      development.secretKeysFile ?? DEFAULT_RUNTIME_PATHS.secretKeysFile,
      development.log ?? console.log,
    );
  }
  let keys: SecretKey[];
  try {
    keys = parseSecretKeys(env.SECRETS_KEYS);
  } catch (error) {
    fail([`SECRETS_KEYS: ${(error as Error).message}`]);
  }
  if (keys.length === 0) fail(['SECRETS_KEYS: no key given']);
  const short = keys.find((k) => k.key.byteLength !== 32);
  if (short) fail([`SECRETS_KEYS: key ${short.id} must be 32 bytes (base64)`]);
  const currentKeyId = env.SECRETS_CURRENT_KEY_ID ?? keys[0]!.id;
  if (!keys.some((k) => k.id === currentKeyId)) {
    fail([`SECRETS_CURRENT_KEY_ID: ${currentKeyId} is not among the SECRETS_KEYS ids`]);
  }
  return { keys, currentKeyId };
}
