// The durable inbox: a webhook delivery stored and its sync job sent in one write, paced per account.
// The one door into ingest/: other folders import only what is exported here.
export {
  DEFAULT_DELIVERY_LIMIT,
  createDeliveryRate,
  type DeliveryLimit,
  type DeliveryRate,
} from './delivery-rate';
export { createInbox, type Inbox, type InboxOutcome } from './inbox';
export { releaseReceipt } from './release-receipt';
export { UnstorableDeliveryError, storableJson, storableText } from './storable';
export { JOB_HEARTBEAT_SECONDS, syncJobOptions } from './sync-job-options';
