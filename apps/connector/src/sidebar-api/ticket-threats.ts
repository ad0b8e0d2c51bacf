// The threats named in a ticket's conversation (GET …/threats): its subject and comments
// read from Zendesk with the account's client, run through the one extractor. The product's own
// notes, Zendesk's and the account's hosts, the client's own domains (an admin setting), the
// agents' signatures and addresses, the requester's address and the well-known sites themselves
// are never threats. The best takedown candidate comes first.
import type { TDatabase } from '@incident-desk/db';
import {
  byTakedownRank,
  extractThreats,
  isWellKnownSite,
  type FoundThreat,
} from '@incident-desk/threat-text';
import { type AccountContext, readOwnDomains, type TTicket, type TUser } from '../accounts';
import { NOTE_MARKER, readTicketComments } from '../sync';

function isStaff(user: TUser | undefined): boolean {
  return user?.role === 'agent' || user?.role === 'admin';
}

function signatureOf(user: TUser | undefined): string | null {
  const signature = (user as { signature?: unknown } | undefined)?.signature;
  return typeof signature === 'string' ? signature : null;
}

export async function readTicketThreats(
  db: TDatabase,
  ctx: AccountContext,
  ticket: TTicket,
): Promise<FoundThreat[]> {
  const [{ comments, users }, ownDomains] = await Promise.all([
    readTicketComments(ctx.zendesk, ticket.id),
    readOwnDomains(db, ctx.accountId),
  ]);
  const staffEmails = [...users.values()]
    .filter(isStaff)
    .map((user) => user.email ?? '')
    .filter(Boolean);
  // the requester reports the threat (a forwarded mail names them in its "To:"): never a threat
  const requester = ticket.requester_id == null ? undefined : users.get(ticket.requester_id);
  const ownEmails = requester?.email ? [...staffEmails, requester.email] : staffEmails;
  const found = extractThreats(
    {
      subject: typeof ticket.subject === 'string' ? ticket.subject : null,
      comments: [...comments].reverse().map((comment) => {
        const author = users.get(comment.author_id);
        return {
          id: comment.id,
          body: comment.plain_body ?? comment.body ?? '',
          public: comment.public,
          author: isStaff(author) ? 'agent' : 'end-user',
          signature: isStaff(author) ? signatureOf(author) : null,
        };
      }),
    },
    {
      // an own domain covers its subdomains, pages and addresses
      ownHosts: [`${ctx.subdomain}.zendesk.com`, ...ownDomains.map((domain) => `*.${domain}`)],
      ownEmails,
      noteMarker: NOTE_MARKER,
    },
  );
  return byTakedownRank(found.filter((threat) => !isWellKnownSite(threat)));
}
