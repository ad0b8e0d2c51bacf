// What the authentication middleware leaves on a request (res.locals) and how handlers read it.
import type { Response } from 'express';
import type { AccountRecord, TokenRecord, UserRecord } from '../state/model';

export interface AuthLocals {
  subdomain?: string;
  account?: AccountRecord;
  user?: UserRecord;
  token?: TokenRecord;
}

function locals(res: Response): AuthLocals {
  return res.locals as AuthLocals;
}

export function setLocals(res: Response, values: AuthLocals): void {
  Object.assign(res.locals, values);
}

export function subdomainOf(res: Response): string | undefined {
  return locals(res).subdomain;
}

/** The authenticated caller; only valid behind `authenticate`. */
export function caller(res: Response): {
  account: AccountRecord;
  user: UserRecord;
  token: TokenRecord;
} {
  const { account, user, token } = locals(res);
  if (!account || !user || !token) throw new Error('caller() used on a route without authenticate');
  return { account, user, token };
}
