import path from 'node:path';
import { z } from 'zod';
import { createIncidentSandbox, type IncidentSandbox } from './sandbox';
import type { TDataFileOutcome } from './state/store';

const ZEnv = z.object({
  INCIDENT_SANDBOX_PORT: z.coerce.number().int().min(0).max(65535).default(8788),
  INCIDENT_SANDBOX_HOST: z.string().default('127.0.0.1'),
  INCIDENT_SANDBOX_DATA_FILE: z.string().min(1).optional(),
  /** Where both sandboxes keep their state (`npm start`: .data/sandbox); this one's file is incident.json. */
  SANDBOX_STATE_DIR: z.string().min(1).optional(),
  INCIDENT_SANDBOX_SEED: z.enum(['true', 'false']).default('true'),
  INCIDENT_SANDBOX_SEED_HISTORY: z.enum(['true', 'false']).default('true'),
  INCIDENT_SANDBOX_WEBHOOK_DELAY_MS: z.coerce.number().int().min(0).default(1000),
});

const parsed = ZEnv.safeParse(process.env);
if (!parsed.success) {
  console.error(
    `[incident-sandbox] invalid environment: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
  );
  process.exit(1);
}
const env = parsed.data;
const dataFile =
  env.INCIDENT_SANDBOX_DATA_FILE ??
  (env.SANDBOX_STATE_DIR ? path.join(env.SANDBOX_STATE_DIR, 'incident.json') : undefined);

function describeDataFile(outcome: TDataFileOutcome | null): string {
  if (outcome === null) return 'in memory';
  return `${outcome.kind === 'loaded' ? 'state loaded from' : 'new state in'} ${outcome.file}`;
}

let sandbox: IncidentSandbox;
try {
  sandbox = createIncidentSandbox({
    seed: env.INCIDENT_SANDBOX_SEED === 'true',
    seedHistory: env.INCIDENT_SANDBOX_SEED_HISTORY === 'true',
    ...(dataFile === undefined ? {} : { dataFile }),
    webhookDelayMs: env.INCIDENT_SANDBOX_WEBHOOK_DELAY_MS,
  });
} catch (error) {
  console.error(`[incident-sandbox] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
if (sandbox.dataFile?.kind === 'set-aside') {
  console.warn(
    `[incident-sandbox] the saved state ${sandbox.dataFile.file} cannot be used (${sandbox.dataFile.reason}): set aside as ${sandbox.dataFile.asidePath}; starting fresh`,
  );
}
const server = await sandbox.listen(env.INCIDENT_SANDBOX_PORT, env.INCIDENT_SANDBOX_HOST);
console.log(
  `incident-sandbox listening on ${server.url} (API ${server.url}/v1, control ${server.url}/_sandbox, demo key sandbox-demo-key, ${describeDataFile(sandbox.dataFile)})`,
);

const shutdown = () => {
  sandbox.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`[incident-sandbox] stopping: ${String(error)}`);
      process.exit(1);
    },
  );
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
