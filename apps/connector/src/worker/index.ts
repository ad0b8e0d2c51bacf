// The job worker: queues, each account's share, a job's run and outcome, instance liveness, periodic passes.
// The one door into worker/: other folders import only what is exported here.
export { startDeadJobSweep, type DeadJobSweep } from './dead-job-sweep';
export {
  instanceAliveSql,
  startInstanceLiveness,
  type InstanceLiveness,
} from './instance-liveness';
export type { SyncOutcome } from './job-outcome';
export { startPeriodicPass } from './periodic-pass';
export { startPgliteJobTableVacuum } from './pglite-job-table-vacuum';
export { queueDepthReader } from './queue-depths';
export { SYNC_QUEUES, createSyncQueues, type SyncQueue, type SyncQueueOptions } from './queues';
export { startWorker, type Worker } from './worker';
