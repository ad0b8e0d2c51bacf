// What production refuses to start without: the variables it needs, safe settings (or a lab that
// says it is one), and a real database unless the embedded one is chosen on purpose.
import type { TEnv } from './config-env';
import { fail } from './config-error';
import { SANDBOX_ZENDESK_CLIENT } from './config-sandbox';
import { unsafeProductionSettings } from './production-safety';

const REQUIRED_IN_PRODUCTION = [
  'CONNECTOR_PUBLIC_URL',
  'ZENDESK_CLIENT_ID',
  'ZENDESK_CLIENT_SECRET',
  'ZENDESK_REDIRECT_URI',
  'ZENDESK_BASE_URL_TEMPLATE',
  'SECRETS_KEYS',
] as const;

export function checkProductionSettings(env: TEnv, log: (message: string) => void): void {
  const missing = REQUIRED_IN_PRODUCTION.filter((name) => env[name] === undefined).map(
    (name) => `${name}: required when NODE_ENV=production`,
  );
  if (missing.length > 0) fail(missing);
  const unsafe = unsafeProductionSettings(env, SANDBOX_ZENDESK_CLIENT);
  if (unsafe.length > 0 && env.ALLOW_INSECURE_LAB !== 'true') fail(unsafe);
  if (unsafe.length > 0) {
    log(
      `ALLOW_INSECURE_LAB=true: production mode started for a lab despite: ${unsafe.map((line) => line.split(':')[0]).join(', ')}`,
    );
  }
  if (env.DATABASE_URL === undefined && env.ALLOW_EMBEDDED_DATABASE !== 'true') {
    fail([
      'DATABASE_URL: required when NODE_ENV=production; the embedded PGlite is one process on a local folder without fsync, ' +
        'set ALLOW_EMBEDDED_DATABASE=true to run production on it anyway',
    ]);
  }
}
