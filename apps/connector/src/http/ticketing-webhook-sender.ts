// Who sent a Zendesk trigger delivery: the account its address names, whose webhook signing
// secret signed the raw bytes, and whose Zendesk account it comes from (bound at the first
// delivery). Anything else is answered here (401, 400, 404, 409 or 503) and goes no further.
import type { Request, Response } from 'express';
import {
  checkDeliveryAccount,
  verifyZendeskWebhook,
  type ZendeskWebhookDirectory,
} from '../accounts';
import type { Logger } from '../log';
import { sendError, sendUnavailable } from './app-error';

export type WebhookAccount = NonNullable<Awaited<ReturnType<ZendeskWebhookDirectory['find']>>>;

export interface SenderCheck {
  accounts: ZendeskWebhookDirectory;
  toleranceSeconds?: number;
  now?: () => Date;
  logger: Logger;
}

/** The account that signed the delivery, or null once the refusal is answered. */
export async function verifiedSender(
  req: Request,
  res: Response,
  rawBody: Buffer,
  check: SenderCheck,
): Promise<WebhookAccount | null> {
  const account = await signingAccount(req, res, rawBody, check);
  if (!account) return null;
  return (await fromItsZendeskAccount(req, res, account, check)) ? account : null;
}

async function signingAccount(
  req: Request,
  res: Response,
  rawBody: Buffer,
  check: SenderCheck,
): Promise<WebhookAccount | null> {
  const accountId = typeof req.query.account === 'string' ? req.query.account : '';
  let account: WebhookAccount | null;
  try {
    account = accountId ? await check.accounts.find(accountId) : null;
  } catch (error) {
    check.logger.error('ticketing webhook: account lookup failed', { error });
    sendUnavailable(res, 'could not read the account; retry later');
    return null;
  }
  if (!account) {
    sendError(res, 'unknown_account', 'no account matches this address');
    return null;
  }
  res.locals.accountId = account.accountId;

  const verification = verifyZendeskWebhook({
    secret: account.secrets,
    rawBody,
    signature: req.get('x-zendesk-webhook-signature'),
    timestamp: req.get('x-zendesk-webhook-signature-timestamp'),
    ...(check.now ? { now: check.now() } : {}),
    ...(check.toleranceSeconds === undefined ? {} : { toleranceSeconds: check.toleranceSeconds }),
  });
  if (!verification.ok) {
    // a missing or wrong signature is 401, a bad timestamp 400 (the table)
    sendError(res, verification.reason, `webhook signature check failed: ${verification.reason}`);
    return null;
  }
  return account;
}

/** Signed by this installation's secret; now it must also come from its Zendesk account. */
async function fromItsZendeskAccount(
  req: Request,
  res: Response,
  account: WebhookAccount,
  check: SenderCheck,
): Promise<boolean> {
  const identity = checkDeliveryAccount(
    account.zendeskAccountId ?? null,
    req.get('x-zendesk-account-id'),
  );
  if (!identity.ok) {
    sendError(res, identity.code, identity.message, { status: identity.status });
    return false;
  }
  if (identity.bind === undefined || !check.accounts.bindZendeskAccount) return true;
  let bound: boolean;
  try {
    bound = await check.accounts.bindZendeskAccount(account.accountId, identity.bind);
  } catch (error) {
    check.logger.error('ticketing webhook: account binding failed', { error });
    sendUnavailable(res, 'could not read the account; retry later');
    return false;
  }
  if (!bound) {
    sendError(
      res,
      'account_mismatch',
      'the delivery comes from another Zendesk account than this installation’s',
    );
    return false;
  }
  return true;
}
