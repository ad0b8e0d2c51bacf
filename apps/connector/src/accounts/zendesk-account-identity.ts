// Which Zendesk account stands behind a subdomain. A subdomain can be renamed, or released and
// registered again by someone else: the installation is bound to Zendesk's own account id, not
// only to the name.
//
// Zendesk publishes no API that returns the account id (its developer support says so); the one
// documented carrier is the `X-Zendesk-Account-Id` header of webhook deliveries. So:
// - deliveries: the first one that verifies with the account's own signing secret (a secret the
//   connector created through that account's API at setup) binds the account id; every later
//   delivery must carry the same id (another id: 403; none: 400, Zendesk always sends it);
// - re-installs and admin sign-ins: the fresh token must see the webhook setup created for the
//   installation. A webhook id (a ULID) exists only in the Zendesk account that created it, so a
//   subdomain now owned by another Zendesk account answers 404 and is refused.

const ACCOUNT_ID = /^[1-9][0-9]{0,18}$/;

/** Why a delivery's Zendesk account is refused (each an error code of http/app-error.ts). */
type DeliveryAccountRefusal = 'invalid_account_id' | 'missing_account_id' | 'account_mismatch';

export type DeliveryAccountCheck =
  | { ok: true; bind?: bigint }
  | { ok: false; status: 400 | 403; code: DeliveryAccountRefusal; message: string };

export function checkDeliveryAccount(
  bound: bigint | null,
  header: string | undefined,
): DeliveryAccountCheck {
  if (header !== undefined && !ACCOUNT_ID.test(header)) {
    return {
      ok: false,
      status: 400,
      code: 'invalid_account_id',
      message: 'X-Zendesk-Account-Id is not an account id',
    };
  }
  if (bound === null)
    return header === undefined ? { ok: true } : { ok: true, bind: BigInt(header) };
  if (header === undefined) {
    return {
      ok: false,
      status: 400,
      code: 'missing_account_id',
      message: 'X-Zendesk-Account-Id is required',
    };
  }
  return BigInt(header) === bound
    ? { ok: true }
    : {
        ok: false,
        status: 403,
        code: 'account_mismatch',
        message: 'the delivery comes from another Zendesk account than this installation’s',
      };
}

export type SameAccount = 'same' | 'other' | 'unknown';

/** Whether the token's Zendesk account holds the installation's webhook (see above). */
export async function holdsInstallationWebhook(
  baseUrl: string,
  accessToken: string,
  webhookId: string,
  options: { fetch?: typeof fetch; timeoutMs: number },
): Promise<SameAccount> {
  const response = await (options.fetch ?? fetch)(
    `${baseUrl}/api/v2/webhooks/${encodeURIComponent(webhookId)}`,
    {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      signal: AbortSignal.timeout(options.timeoutMs),
    },
  ).catch(() => undefined);
  if (!response) return 'unknown';
  await response.arrayBuffer().catch(() => undefined);
  if (response.ok) return 'same';
  return response.status === 404 ? 'other' : 'unknown';
}
