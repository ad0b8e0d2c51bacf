/**
 * Every client operation, with its retry class:
 * - `read`: GET; retried on connection errors, timeouts, 429, 502, 503.
 * - `write`: idempotent or not-yet-applied writes; retried only on 429 and 503, where the service
 *   says the request was not processed ("retry later").
 * - `never`: reports and other non-idempotent posts; a duplicate would create a second incident,
 *   comment or file, so they are never retried automatically.
 */
export const OPERATIONS = {
  'incidents.reportTakedown': 'never',
  'incidents.reportMonitoring': 'never',
  'incidents.retrieve': 'read',
  'incidents.retrieveBySubject': 'read',
  'incidents.list': 'read',
  'incidents.snapshots': 'read',
  'incidents.approveTakedown': 'write',
  'incidents.comment': 'never',
  'incidents.attach': 'never',
  'incidents.requestTakedown': 'never',
  'incidents.requestMonitoring': 'never',
  'incidents.markSafe': 'never',
  'resolutions.list': 'read',
  'usage.retrieve': 'read',
  'users.list': 'read',
  'webhooks.create': 'never',
  'webhooks.list': 'read',
  'webhooks.update': 'write',
  'webhooks.delete': 'write',
  'webhooks.test': 'never',
  'webhooks.rotateSecret': 'never',
  'clients.list': 'read',
  'documents.list': 'read',
  'documents.retrieve': 'read',
  'documents.signedUrl': 'read',
} as const;

export type Operation = keyof typeof OPERATIONS;
export type RetryClass = (typeof OPERATIONS)[Operation];
