// What the control API's routes share: the account a path names, and one of its users.
import type { Request } from 'express';
import type { SandboxState } from '../state/sandbox-state';
import { recordInvalid } from '../state/sandbox-state';
import type { AccountRecord, UserRecord } from '../state/model';

/** The account named by the path's `:subdomain` (404 when there is none). */
export function accountOf(state: SandboxState, req: Request): AccountRecord {
  return state.requireAccount(String(req.params.subdomain));
}

/** One of the account's users; a user of another account is refused as invalid. */
export function userOf(acc: AccountRecord, id: number): UserRecord {
  const found = acc.users.get(id);
  if (!found)
    throw recordInvalid({
      user: [{ description: `User ${id} is not in ${acc.subdomain}`, error: 'InvalidValue' }],
    });
  return found;
}
