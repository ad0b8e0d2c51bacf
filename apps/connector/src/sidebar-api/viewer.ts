// What the session's agent may do on a ticket they may see, told with the view so the sidebar
// offers only what they can use; the action routes refuse the rest anyway (ticketToActOn, 403
// `read_only`). The answer comes from Zendesk's Users API read for the session (agent-access.ts).
import type { TViewer } from '@incident-desk/sidebar-contract';
import type { AgentAccess } from './agent-access';

export function viewerOf(access: AgentAccess): TViewer {
  return access.canAct
    ? { canAct: true, reason: null }
    : { canAct: false, reason: 'read_only_role' };
}
