// Who sees a view, and the tickets a view holds now (its conditions run against every ticket of the
// account, in the view's order): what `/views/{id}/tickets`, `/execute`, `/count` and `count_many`
// all answer from.
import type { AccountRecord, TicketRecord, UserRecord, ViewRecord } from '../state/model';
import { ticketInView } from './view-conditions';

/** Whether the user sees the view: shared ones everyone; personal ones their owner; group ones the group. */
export function viewVisibleTo(user: UserRecord, view: ViewRecord): boolean {
  const { restriction } = view;
  if (!restriction) return true;
  if (restriction.type === 'User') return restriction.id === user.id;
  if (user.role === 'admin') return true;
  const groups = restriction.ids ?? [restriction.id];
  return groups.some((group) => user.group_ids.includes(group));
}

/** What each sortable column sorts tickets by (the sandbox's subset). */
const SORT_KEYS: Record<string, (ticket: TicketRecord) => string | number> = {
  nice_id: (ticket) => ticket.id,
  created: (ticket) => ticket.created_at,
  updated: (ticket) => ticket.updated_at,
  status: (ticket) => ticket.status,
  priority: (ticket) => ticket.priority ?? '',
  type: (ticket) => ticket.type ?? '',
};

/** The view's tickets now, sorted by `sortBy` (default: ticket id) in `order`. */
export function ticketsOfView(
  account: AccountRecord,
  view: ViewRecord,
  sortBy: string | null,
  order: 'asc' | 'desc',
): TicketRecord[] {
  const key = SORT_KEYS[sortBy ?? 'nice_id'] ?? SORT_KEYS.nice_id!;
  const direction = order === 'desc' ? -1 : 1;
  return [...account.tickets.values()]
    .filter((ticket) => ticketInView(view.conditions, ticket))
    .sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      return (x < y ? -1 : x > y ? 1 : a.id - b.id) * direction;
    });
}
