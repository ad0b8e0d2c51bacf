import { z } from 'zod';
import { createIncidentSandbox } from './sandbox';

const ZEnv = z.object({
  INCIDENT_SANDBOX_PORT: z.coerce.number().int().min(0).max(65535).default(8788),
  INCIDENT_SANDBOX_HOST: z.string().default('127.0.0.1'),
  INCIDENT_SANDBOX_DATA_FILE: z.string().min(1).optional(),
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

const sandbox = createIncidentSandbox({
  seed: env.INCIDENT_SANDBOX_SEED === 'true',
  seedHistory: env.INCIDENT_SANDBOX_SEED_HISTORY === 'true',
  dataFile: env.INCIDENT_SANDBOX_DATA_FILE,
  webhookDelayMs: env.INCIDENT_SANDBOX_WEBHOOK_DELAY_MS,
});
const server = await sandbox.listen(env.INCIDENT_SANDBOX_PORT, env.INCIDENT_SANDBOX_HOST);
console.log(
  `incident-sandbox listening on ${server.url} (API ${server.url}/v1, control ${server.url}/_sandbox, demo key sandbox-demo-key${env.INCIDENT_SANDBOX_DATA_FILE ? `, data file ${env.INCIDENT_SANDBOX_DATA_FILE}` : ', in memory'})`,
);

const shutdown = () => {
  void sandbox.close().then(() => process.exit(0));
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
