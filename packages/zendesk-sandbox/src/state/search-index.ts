import type { AccountRecord, TicketRecord } from './model';

/** Records what the search index will see, and from when: Zendesk indexes asynchronously. */
export function indexTicket(account: AccountRecord, ticket: TicketRecord, now: number): void {
  const snapshots = account.searchIndex.get(ticket.id) ?? [];
  snapshots.push({
    ticket: {
      ...ticket,
      tags: [...ticket.tags],
      custom_fields: ticket.custom_fields.map((f) => ({ ...f })),
    },
    visibleAt: now + account.searchLagMs,
  });
  account.searchIndex.set(ticket.id, snapshots);
}

/** The indexed version of each ticket as of `now`: the newest snapshot whose lag has passed. */
export function indexedTickets(account: AccountRecord, now: number): TicketRecord[] {
  const result: TicketRecord[] = [];
  for (const snapshots of account.searchIndex.values()) {
    const visible = snapshots.filter((s) => s.visibleAt <= now).at(-1);
    if (visible) result.push(visible.ticket);
  }
  return result.sort((a, b) => a.id - b.id);
}

interface Term {
  key: string | null;
  value: string;
  negated: boolean;
  /** A quoted value is a phrase: matched as written, `*` included. */
  quoted: boolean;
}

function tokenise(query: string): Term[] {
  const terms: Term[] = [];
  const pattern = /(-?)(?:([\w.]+)(:|=))?(?:"([^"]*)"|(\S+))/g;
  for (const match of query.matchAll(pattern)) {
    terms.push({
      negated: match[1] === '-',
      key: match[2]?.toLowerCase() ?? null,
      value: (match[4] ?? match[5] ?? '').toLowerCase(),
      quoted: match[4] !== undefined,
    });
  }
  return terms;
}

function like(candidate: unknown, wanted: string, quoted = false): boolean {
  if (candidate === null || candidate === undefined) return !quoted && wanted === 'none';
  const text = String(candidate).toLowerCase();
  return !quoted && wanted.endsWith('*') ? text.startsWith(wanted.slice(0, -1)) : text === wanted;
}

function termHolds(term: Term, ticket: TicketRecord, account: AccountRecord): boolean | null {
  const { key, value } = term;
  if (key === null)
    return `${ticket.subject} ${ticket.description}`
      .toLowerCase()
      .includes(value.replace(/\*$/, ''));
  if (key === 'type') return null;
  if (key === 'status') return like(ticket.status, value);
  if (key === 'tags' || key === 'tag') return ticket.tags.some((t) => like(t, value));
  if (key === 'subject') return ticket.subject.toLowerCase().includes(value);
  if (key === 'description') return ticket.description.toLowerCase().includes(value);
  if (key === 'external_id') return like(ticket.external_id, value);
  if (key === 'requester' || key === 'assignee') {
    const id = key === 'requester' ? ticket.requester_id : ticket.assignee_id;
    if (value === 'none') return id === null;
    const user = id === null ? undefined : account.users.get(id);
    return (
      user !== undefined &&
      (String(user.id) === value || user.email === value || like(user.name, value))
    );
  }
  const custom = /^custom_field_(\d+)$/.exec(key);
  if (custom)
    return like(
      ticket.custom_fields.find((f) => f.id === Number(custom[1]))?.value,
      value,
      term.quoted,
    );
  return false;
}

/** Tickets matching a Zendesk search query, for the subset of the syntax the sandbox understands. */
export function searchTickets(
  account: AccountRecord,
  query: string,
  now: number,
): TicketRecord[] | null {
  const terms = tokenise(query);
  const typeTerm = terms.find((t) => t.key === 'type');
  if (typeTerm && typeTerm.value !== 'ticket') return null;
  return indexedTickets(account, now).filter((ticket) =>
    terms.every((term) => {
      const holds = termHolds(term, ticket, account);
      return holds === null ? true : holds !== term.negated;
    }),
  );
}
