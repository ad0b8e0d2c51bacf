// `GET /api/v2/users/search?query=`: Zendesk matches a partial or full value of a user's name or
// email, and takes `key:value` terms of its search syntax; the sandbox reads `email:`, `name:`,
// `role:` and bare words (each must match; words match name or email, case-insensitively).
import type { UserRecord } from './model';

const KEYED = /^(email|name|role):(.*)$/i;

function termMatches(user: UserRecord, term: string): boolean {
  const keyed = KEYED.exec(term);
  if (keyed) {
    const [, key = '', value = ''] = keyed;
    const wanted = value.replace(/^"|"$/g, '').toLowerCase();
    if (key.toLowerCase() === 'role') return user.role === wanted;
    const text = (key.toLowerCase() === 'email' ? user.email : user.name).toLowerCase();
    return wanted.endsWith('*') ? text.startsWith(wanted.slice(0, -1)) : text.includes(wanted);
  }
  const word = term.toLowerCase();
  return user.name.toLowerCase().includes(word) || user.email.toLowerCase().includes(word);
}

/** The account's users matching every term of the query, by id. */
export function searchUsers(users: Iterable<UserRecord>, query: string): UserRecord[] {
  const terms = query.split(/\s+/).filter((term) => term !== '');
  return [...users]
    .filter((user) => terms.every((term) => termMatches(user, term)))
    .sort((a, b) => a.id - b.id);
}
