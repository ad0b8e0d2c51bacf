import type { WorkspaceDeps } from '../workspace-deps';
import type { WorkspaceSession } from './session-store';
import type { TApiTicket } from './support-api';
import { zafCurrentUser, zafUser } from './zaf-user';

interface ZafError {
  message: string;
  name?: string;
}
export type TZafResult = Record<string, unknown> & { errors: Record<string, ZafError> };

const CUSTOM_FIELD = /^ticket\.customField:custom_field_(\d+)$/;
// Posted by newer SDK builds for their own bookkeeping: answered with nothing, and no error.
const SILENT_PATHS = new Set(['session.live', '__track__']);

/** What `app.registered` carries as `context`, and `instances` per instance. */
function instanceContext(session: Pick<WorkspaceSession, 'appGuid' | 'subdomain' | 'ticketId'>) {
  return {
    instanceGuid: session.appGuid,
    product: 'support',
    location: 'ticket_sidebar',
    ticketId: session.ticketId,
    account: { subdomain: session.subdomain },
  };
}

/** Answers a ZAF `get`: one value per path, or an error for that path alone. */
export async function resolveGet(
  paths: string[],
  session: WorkspaceSession,
  deps: Pick<WorkspaceDeps, 'findUser'>,
): Promise<TZafResult> {
  const result: TZafResult = { errors: {} };
  let ticket: Promise<TApiTicket> | undefined;
  const getTicket = () => (ticket ??= session.api.getTicket(session.ticketId));

  const requester = async (t: TApiTicket) => {
    if (t.requester_id == null) return null;
    const user = await deps.findUser(session.subdomain, t.requester_id);
    return user ? zafUser(user) : null;
  };

  const resolvers: Record<string, () => Promise<unknown>> = {
    currentUser: async () => zafCurrentUser(session.agent),
    currentAccount: async () => ({ subdomain: session.subdomain }),
    // The one app instance this page hosts (one ticket tab, one sidebar app), keyed by its guid.
    instances: async () => ({ [session.appGuid]: instanceContext(session) }),
    // The Support API's via object (channel and source), as ZAF's Via object reads it.
    'ticket.via': async () => (await getTicket()).via ?? null,
    'ticket.form': async () => ({ id: (await getTicket()).ticket_form_id ?? null }),
    'ticket.id': async () => (await getTicket()).id,
    'ticket.subject': async () => (await getTicket()).subject ?? '',
    'ticket.description': async () => (await getTicket()).description ?? '',
    'ticket.status': async () => (await getTicket()).status ?? null,
    'ticket.priority': async () => (await getTicket()).priority ?? null,
    'ticket.type': async () => (await getTicket()).type ?? null,
    'ticket.tags': async () => (await getTicket()).tags,
    'ticket.createdAt': async () => (await getTicket()).created_at ?? null,
    'ticket.updatedAt': async () => (await getTicket()).updated_at ?? null,
    'ticket.requester': async () => requester(await getTicket()),
    ticket: async () => {
      const t = await getTicket();
      return {
        id: t.id,
        subject: t.subject ?? '',
        description: t.description ?? '',
        status: t.status ?? null,
        priority: t.priority ?? null,
        type: t.type ?? null,
        tags: t.tags,
        requester: await requester(t),
        createdAt: t.created_at ?? null,
        updatedAt: t.updated_at ?? null,
      };
    },
  };

  for (const path of paths) {
    if (SILENT_PATHS.has(path)) continue;
    try {
      const customField = CUSTOM_FIELD.exec(path);
      if (customField) {
        const field = (await getTicket()).custom_fields.find(
          (f) => String(f.id) === customField[1],
        );
        if (!field)
          result.errors[path] = { name: 'Error', message: `Could not find handler for: "${path}"` };
        else result[path] = field.value ?? null;
        continue;
      }
      const resolve = resolvers[path];
      if (!resolve) {
        result.errors[path] = { name: 'Error', message: `Could not find handler for: "${path}"` };
        continue;
      }
      result[path] = await resolve();
    } catch (err) {
      result.errors[path] = { name: 'Error', message: (err as Error).message };
    }
  }
  return result;
}
