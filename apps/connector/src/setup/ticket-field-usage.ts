// Whether tickets hold values in one of setup's ticket fields, which a disconnect then keeps
// (deleting a field deletes its values on every ticket). The connector's own links say so for the
// fields it writes; otherwise Zendesk's search for any value (`custom_field_<id>:*`). Search lags
// behind recent changes and the form of that query is not confirmed by Zendesk's documentation,
// so a search that fails counts as "in use": the field is kept and the admin told why.
import type { TDatabase } from '@incident-desk/db';
import type { ZendeskClient } from '@incident-desk/zendesk-api';
import { stepErrorMessage } from './step-error';

export interface FieldUsage {
  inUse: boolean;
  /** Why it counts as used, for the admin. */
  why: string | null;
}

export async function ticketFieldUsage(
  zendesk: ZendeskClient,
  db: TDatabase,
  accountId: string,
  fieldId: number,
): Promise<FieldUsage> {
  const links = await db.prisma.incidentLink.count({ where: { accountId } });
  if (links > 0)
    return {
      inUse: true,
      why: `${links === 1 ? '1 ticket is' : `${links} tickets are`} linked to incidents`,
    };
  try {
    const page = await zendesk.search.query(`type:ticket custom_field_${fieldId}:*`);
    const found = page.count ?? page.results.length;
    return found > 0
      ? {
          inUse: true,
          why: `${found === 1 ? '1 ticket holds' : `${found} tickets hold`} a value in it`,
        }
      : { inUse: false, why: null };
  } catch (error) {
    return {
      inUse: true,
      why: `could not tell whether tickets use it: ${stepErrorMessage(error)}`,
    };
  }
}
