// Saving the account's incident connection from the admin page: the key is write-only and kept
// when omitted, and a key the service refuses (or one not covering these clients) is never saved.
// A key saved while setup waits for it (a new account) queues setup, so the first run goes on.
import { z } from 'zod';
import type { PgBoss, TDatabase } from '@incident-desk/db';
import { readSetupStatus, requestSetup, type SetupState } from '../accounts';
import { AppError, type AppErrorCode } from '../http';
import { secretBinding, type SecretBox } from '../secrets';
import { checkIncidentKey } from './incident-key-check';

const ZIncidentConnectionUpdate = z
  .object({
    apiKey: z.string().trim().min(1).max(500).optional(),
    clientId: z.string().trim().min(1).max(200),
    subClientIds: z.array(z.string().trim().min(1).max(200)).max(100).default([]),
  })
  .strict();

export interface SavedIncidentConnection {
  apiKey: 'set';
  clientId: string;
  clientName: string;
  subClientIds: string[];
  /** Where setup stands after the save: `queued` when the save started it. */
  setup: { state: SetupState };
}

/** Setup states that wait for the incident connection: saving it starts setup. */
const WAITING_FOR_KEY: readonly SetupState[] = ['needs_configuration', 'never_run'];

export async function saveIncidentConnection(
  deps: {
    db: TDatabase;
    boss: PgBoss;
    secretBox: SecretBox;
    now: () => number;
    incidentApiUrl?: string | undefined;
  },
  accountId: string,
  body: unknown,
): Promise<SavedIncidentConnection | { error: AppError; facts?: Record<string, unknown> }> {
  const { db, secretBox } = deps;
  const parsed = ZIncidentConnectionUpdate.safeParse(body);
  if (!parsed.success) return refusal('invalid_connection', z.prettifyError(parsed.error));
  const current = await db.prisma.accountConfiguration.findUnique({ where: { accountId } });
  const baseUrl = current?.incidentApiBaseUrl ?? deps.incidentApiUrl;
  if (!baseUrl) return refusal('no_incident_service', 'no incident service is configured');
  const storedKey = current?.sealedIncidentApiKey;
  if (!parsed.data.apiKey && !storedKey) {
    return refusal('api_key_required', 'the incident API key is not set yet');
  }
  const { clientId } = parsed.data;
  const subClientIds = [...new Set(parsed.data.subClientIds)].filter((id) => id !== clientId);
  const binding = secretBinding.incidentApiKey(accountId);
  const apiKey = parsed.data.apiKey ?? (await secretBox.open(storedKey!, binding));
  const check = await checkIncidentKey({ baseUrl, apiKey, clientId, subClientIds });
  if (!check.ok) {
    return {
      error: new AppError(check.code, { message: check.message, status: check.status }),
      ...(check.facts ? { facts: check.facts } : {}),
    };
  }
  const data = {
    incidentApiBaseUrl: baseUrl,
    incidentClientId: clientId,
    incidentClientName: check.clientName,
    incidentSubClientIds: subClientIds,
    ...(parsed.data.apiKey
      ? { sealedIncidentApiKey: await secretBox.seal(parsed.data.apiKey, binding) }
      : {}),
  };
  await db.prisma.accountConfiguration.upsert({
    where: { accountId },
    create: { accountId, ...data },
    update: data,
  });
  let { state } = await readSetupStatus(db, accountId);
  if (WAITING_FOR_KEY.includes(state)) {
    await requestSetup(db, deps.boss, accountId, new Date(deps.now()));
    state = 'queued';
  }
  return { apiKey: 'set', clientId, clientName: check.clientName, subClientIds, setup: { state } };
}

const refusal = (code: AppErrorCode, message: string) => ({
  error: new AppError(code, { message }),
});
