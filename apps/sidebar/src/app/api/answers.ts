// The connector's answers, read with the contract's schemas. Loaded with the UI chunk, not the
// entry: the entry only starts the first requests, and zod would double its size.
import {
  ZActionAck,
  ZFoundThreats,
  ZSidebarTicketView,
  ZThreatDuplicates,
  type TActionAck,
  type FoundThreat,
  type TSidebarTicketView,
  type TThreatDuplicates,
} from '@incident-desk/sidebar-contract';

/** What the reader needs of one of the contract's schemas. */
interface AnswerSchema<T> {
  safeParse(body: unknown): { success: true; data: T } | { success: false };
}

/** A reader of one answer: its value, or null when the body does not match the schema. */
const readerOf =
  <T>(schema: AnswerSchema<T>) =>
  (body: unknown): T | null => {
    const parsed = schema.safeParse(body);
    return parsed.success ? parsed.data : null;
  };

/** The view the connector answered, or null when the body is not one. */
export const parseTicketView: (body: unknown) => TSidebarTicketView | null =
  readerOf(ZSidebarTicketView);

/** Whether a threat is already an incident of the account, or null when unreadable. */
export const parseThreatDuplicates: (body: unknown) => TThreatDuplicates | null =
  readerOf(ZThreatDuplicates);

const readFoundThreats = readerOf(ZFoundThreats);

/** The threats found in the ticket (an entry that cannot be read is left out), or null. */
export function parseFoundThreats(body: unknown): FoundThreat[] | null {
  return readFoundThreats(body)?.threats ?? null;
}

/** An action's answer: its message for the agent, when it has one (never refused). */
export function parseActionAck(body: unknown): TActionAck {
  return ZActionAck.parse(body);
}
