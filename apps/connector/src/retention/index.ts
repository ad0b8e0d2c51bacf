// What expires when, for every table, and the pass that deletes it.
// The one door into retention/: other folders import only what is exported here.
export { keepFinishedJobs } from './finished-jobs';
export { MIN_RECEIPT_RETENTION_DAYS } from './redelivery-windows';
export { startRetention, type RetentionOptions } from './retention-service';
export type { RetentionSettings } from './retention-settings';
