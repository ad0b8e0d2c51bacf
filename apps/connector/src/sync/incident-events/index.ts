export { incidentEventSyncHandler } from './incident-event-sync-handler';
