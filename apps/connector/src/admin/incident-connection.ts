// Saving the account's incident connection from the admin page: the key is write-only and kept
// when omitted, and a key the service refuses (or one not covering these clients) is never saved.
import { z } from 'zod';
import type { TDatabase } from '@incident-desk/db';
import { AppError, type AppErrorCode } from '../http/app-error';
import type { SecretBox } from '../secrets/secret-box';
import { secretBinding } from '../secrets/secret-bindings';
import { checkIncidentKey } from './incident-key-check';

export const ZIncidentConnectionUpdate = z
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
}

export async function saveIncidentConnection(
  deps: { db: TDatabase; secretBox: SecretBox; incidentApiUrl?: string | undefined },
  accountId: string,
  body: unknown,
): Promise<SavedIncidentConnection | { error: AppError }> {
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
    return { error: new AppError(check.code, { message: check.message, status: check.status }) };
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
  return { apiKey: 'set', clientId, clientName: check.clientName, subClientIds };
}

const refusal = (code: AppErrorCode, message: string) => ({
  error: new AppError(code, { message }),
});
