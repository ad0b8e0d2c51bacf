import type { WorkspaceSession } from './session-store';
import type { TZafResult } from './zaf-get';

const CUSTOM_FIELD = /^ticket\.customField:custom_field_(\d+)$/;
const STATUSES = new Set(['new', 'open', 'pending', 'hold', 'solved', 'closed']);

/**
 * Answers a ZAF `set`. Unlike the real agent workspace, which only edits the unsaved ticket form,
 * the sandbox saves every accepted change through the Support API at once (one ticket update).
 */
export async function applySet(
  params: Record<string, unknown>,
  session: WorkspaceSession,
): Promise<TZafResult> {
  const result: TZafResult = { errors: {} };
  const update: Record<string, unknown> = {};
  const customFields: Array<{ id: number; value: unknown }> = [];
  let wantedTags: string[] | undefined;
  const accepted: string[] = [];

  for (const [path, value] of Object.entries(params)) {
    const customField = CUSTOM_FIELD.exec(path);
    if (customField) {
      customFields.push({ id: Number(customField[1]), value });
    } else if (path === 'ticket.tags') {
      if (!Array.isArray(value) || value.some((t) => typeof t !== 'string')) {
        result.errors[path] = { name: 'Error', message: 'ticket.tags must be an array of strings' };
        continue;
      }
      wantedTags = value as string[];
    } else if (path === 'ticket.status') {
      if (typeof value !== 'string' || !STATUSES.has(value)) {
        result.errors[path] = {
          name: 'Error',
          message: `invalid status: ${JSON.stringify(value)}`,
        };
        continue;
      }
      update.status = value;
    } else if (path === 'ticket.subject') {
      if (typeof value !== 'string') {
        result.errors[path] = { name: 'Error', message: 'ticket.subject must be a string' };
        continue;
      }
      update.subject = value;
    } else {
      result.errors[path] = { name: 'Error', message: `Could not find handler for: "${path}"` };
      continue;
    }
    accepted.push(path);
  }
  if (accepted.length === 0) return result;

  try {
    if (customFields.length) update.custom_fields = customFields;
    if (wantedTags) {
      // additional_tags / remove_tags rather than `tags`, so a concurrent tag change is not overwritten.
      const current = (await session.api.getTicket(session.ticketId)).tags;
      const add = wantedTags.filter((t) => !current.includes(t));
      const remove = current.filter((t) => !wantedTags?.includes(t));
      if (add.length) update.additional_tags = add;
      if (remove.length) update.remove_tags = remove;
    }
    if (Object.keys(update).length) await session.api.updateTicket(session.ticketId, update);
    for (const path of accepted) result[path] = params[path];
  } catch (err) {
    for (const path of accepted)
      result.errors[path] = { name: 'Error', message: (err as Error).message };
  }
  return result;
}
