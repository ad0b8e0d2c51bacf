export { IncidentClient, createIncidentClient } from './incident-client';
export type {
  IncidentCallObservation,
  IncidentCallObserver,
  IncidentClientOptions,
  RequestOptions,
  FetchLike,
} from './options';
export { DEFAULT_TIMEOUT_MS, DEFAULT_USER_AGENT } from './options';
export { DEFAULT_RETRY_POLICY, isRetryable, type RetryPolicy } from './retry';
export { OPERATIONS, type Operation, type RetryClass } from './operations';
export { CursorPaginator, OffsetPaginator, type CursorPage, type OffsetPage } from './pagination';
export { path } from './path';
export { maxAttachFileBytes } from './multipart';
export type { ReportResult } from './resources/incidents';
export {
  ZWebhookCreated,
  ZWebhookSubscriptionRecord,
  ZRotatedSecret,
  ZSignedUrl,
  type TWebhookCreated,
  type TWebhookSubscriptionRecord,
  type TRotatedSecret,
  type SignedUrl,
} from './loose';
