// The connector's answers, read with the contract's schemas. Loaded with the UI chunk, not the
// entry: the entry only starts the first requests, and zod would double its size.
import {
  ZActionAck,
  ZFoundThreats,
  ZSidebarTicketView,
  ZThreatDuplicates,
  type TActionAck,
  type TFoundThreat,
  type TSidebarTicketView,
  type TThreatDuplicates,
} from '@incident-desk/sidebar-contract';

/** The view the connector answered, or null when the body is not one. */
export function parseTicketView(body: unknown): TSidebarTicketView | null {
  const parsed = ZSidebarTicketView.safeParse(body);
  return parsed.success ? parsed.data : null;
}

/** An action's answer: its message for the agent, when it has one. */
export function parseActionAck(body: unknown): TActionAck {
  return ZActionAck.parse(body);
}

/** The threats found in the ticket (an entry that cannot be read is left out), or null. */
export function parseFoundThreats(body: unknown): TFoundThreat[] | null {
  const parsed = ZFoundThreats.safeParse(body);
  return parsed.success ? parsed.data.threats : null;
}

/** Whether a threat is already an incident of the account, or null when unreadable. */
export function parseThreatDuplicates(body: unknown): TThreatDuplicates | null {
  const parsed = ZThreatDuplicates.safeParse(body);
  return parsed.success ? parsed.data : null;
}
