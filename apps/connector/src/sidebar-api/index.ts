// The sidebar's API: the signed page, the agent's session, a ticket's view and its actions (report,
// link, retry). The one door into sidebar-api/: other folders import only what is exported here.
export { retryLink } from './retry-link';
export { sidebarApiRouter } from './sidebar-api-router';
export { orRetryLater } from './sidebar-errors';
export { COMMENT_FORWARD_PREFIX, IN_FLIGHT_PREFIX } from './sync-health';
export { retryForward } from './ticket-actions';
