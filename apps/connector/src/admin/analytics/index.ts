// Takedown analytics on the admin page: the signed-in account's incidents of the last weeks, the
// connector's own records beside them, and each chart as CSV. The rest of admin/ mounts the router.
export { adminAnalyticsRouter } from './analytics-router';
