// The account's Zendesk groups, for the admin page's "group for new tickets" picker. Read through
// the account's token; a refusal is a state to show (the page falls back to a group id field).
import { AppError } from '../http';
import { type DatabaseAccountContextProvider, isZendeskAccessRefused } from '../accounts';

/** At most this many groups are listed (ten pages of 100). */
const MAX_GROUPS = 1000;

export type GroupList = { groups: { id: number; name: string }[] } | { error: AppError };

export async function listZendeskGroups(
  accounts: DatabaseAccountContextProvider,
  accountId: string,
): Promise<GroupList> {
  const zendesk = await accounts.zendeskFor(accountId);
  const groups: { id: number; name: string }[] = [];
  try {
    for await (const group of zendesk.groups.list({ timeoutMs: 10_000 })) {
      if (group.deleted) continue;
      groups.push({ id: group.id, name: group.name });
      if (groups.length >= MAX_GROUPS) break;
    }
  } catch (error) {
    if (isZendeskAccessRefused(error))
      return {
        error: new AppError('groups_not_readable', {
          message:
            'Zendesk does not let incident-desk read the groups; enter the group id instead.',
        }),
      };
    return {
      error: new AppError('zendesk_unavailable', {
        message: 'Zendesk could not be reached to list the groups; enter the group id instead.',
      }),
    };
  }
  groups.sort((a, b) => a.name.localeCompare(b.name));
  return { groups };
}
