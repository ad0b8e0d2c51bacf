export { ZendeskClient } from './client';
export type {
  ZendeskCallObservation,
  ZendeskCallObserver,
  ZendeskClientOptions,
  ZendeskMarketplaceIdentity,
  ZendeskRequestOptions,
  ZendeskTokenProvider,
} from './core/options';
export { DEFAULT_USER_AGENT } from './core/options';
export { DEFAULT_RETRY_POLICY, type ZendeskRetryPolicy } from './core/retry-policy';
export {
  ZENDESK_ATTACHMENT_HOSTS,
  checkAttachmentHosts,
  type AttachmentHostResolver,
  type AttachmentSourceOptions,
} from './core/attachment-sources';
export { isPublicAddress } from './core/public-address';
export {
  ZendeskAbortError,
  ZendeskApiError,
  ZendeskAttachmentRefusedError,
  ZendeskAttachmentTooLargeError,
  ZendeskBadRequestError,
  ZendeskConflictError,
  ZendeskConnectionError,
  ZendeskError,
  ZendeskForbiddenError,
  ZendeskRateLimitedError,
  ZendeskRecordInvalidError,
  ZendeskRecordNotFoundError,
  ZendeskRedirectError,
  ZendeskRequestValidationError,
  ZendeskResponseValidationError,
  ZendeskServerError,
  ZendeskTimeoutError,
  ZendeskUnauthorizedError,
  type TAttachmentRefusal,
  type TZendeskApiErrorCode,
  type TZendeskFieldErrors,
} from './core/errors';
export { encodePath } from './core/encode-path';
export { CursorPage, Page, PagePromise } from './core/pagination';

export type {
  AttachmentDownloadOptions,
  AttachmentStream,
  DownloadedAttachment,
} from './resources/attachments';
export { buildCustomFieldTicketQuery, SearchPage, type SearchParams } from './resources/search';
export { TicketCommentsPage, type TicketCommentsListParams } from './resources/ticket-comments';
export type { TicketAuditsListParams } from './resources/ticket-audits';
export type { TicketFieldsListParams } from './resources/ticket-fields';
export type { JobStatusWaitOptions } from './resources/job-statuses';
export type { TicketCreateOptions } from './resources/tickets';
export type { TriggersListParams } from './resources/triggers';
export type { ViewsListParams } from './resources/views';
export type { UploadCreateInput } from './resources/uploads';

export * from './schemas/app';
export * from './schemas/attachment';
export * from './schemas/comment';
export * from './schemas/group';
export * from './schemas/common';
export * from './schemas/job-status';
export * from './schemas/locale';
export * from './schemas/search';
export * from './schemas/ticket';
export * from './schemas/ticket-field';
export * from './schemas/trigger';
export * from './schemas/upload';
export * from './schemas/user';
export * from './schemas/view';
export * from './schemas/webhook';

export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  ZENDESK_TEST_SIGNING_SECRET,
  ZENDESK_WEBHOOK_SIGNATURE_HEADER,
  ZENDESK_WEBHOOK_TIMESTAMP_HEADER,
} from './webhook-signature/constants';
export {
  computeZendeskSignature,
  type WebhookRawBody,
} from './webhook-signature/compute-signature';
export {
  signZendeskWebhook,
  type SignedZendeskWebhook,
  type SignZendeskWebhookInput,
} from './webhook-signature/sign-zendesk-webhook';
export {
  verifyZendeskWebhook,
  type VerifyZendeskWebhookInput,
  type ZendeskWebhookRejection,
  type ZendeskWebhookVerification,
} from './webhook-signature/verify-zendesk-webhook';
export { normalizeSubdomain, subdomainFromInput } from './subdomain';
