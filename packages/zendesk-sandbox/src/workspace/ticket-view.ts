// A ticket as the workspace page shows it: the ticket, its comments, and the names to show.
import type { TApiComment, TApiTicket } from './support-api';

export interface TicketView {
  ticket: TApiTicket;
  comments: TApiComment[];
  authors: ReadonlyMap<number, string>;
  fields: ReadonlyMap<number, string>;
  /** A drop-down's options by field id (value to name), shown by name as Zendesk shows them. */
  options?: ReadonlyMap<number, ReadonlyMap<string, string>>;
}
