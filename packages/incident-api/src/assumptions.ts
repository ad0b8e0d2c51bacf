/**
 * Every choice this package makes where the incident service's spec says "not shown".
 * The code reads these constants, so changing one here changes the behaviour everywhere;
 * responses of the endpoints concerned are parsed loosely (extra and missing keys tolerated).
 */

/** Response header carrying the request id on errors. Spec: error body fields other than `message` not shown. */
export const REQUEST_ID_HEADERS = ['x-request-id', 'request-id'] as const;

/**
 * Report validation failures (null comment, bad phone): status not shown. 400 and 422 are both
 * read as an invalid parameter.
 */
export const INVALID_PARAMETER_STATUSES = [400, 422] as const;

/** POST /v1/incident/{id}/comment: the text field is assumed to be `comment` (like the report's). */
export const COMMENT_TEXT_FIELD = 'comment';

/**
 * POST /v1/incident/{id}/attach: fields not shown. Assumed multipart/form-data with the file part
 * repeated as `attachments` (the report's field name); 50 MB per request is the documented limit.
 */
export const ATTACH_FILE_FIELD = 'attachments';
export const MAX_ATTACH_BYTES = 50_000_000;

/**
 * POST /v1/incident/{id}/tkd, /monitor and /safe: request and response not shown. Assumed a JSON
 * object body (empty unless the caller passes fields, e.g. a comment), and a loose JSON answer.
 */
export const INCIDENT_ACTION_PATHS = { takedown: 'tkd', monitor: 'monitor', safe: 'safe' } as const;

/** Webhook test delivery and secret rotation: paths not shown. */
export const WEBHOOK_TEST_PATH_SUFFIX = 'test';
export const WEBHOOK_ROTATE_SECRET_PATH_SUFFIX = 'rotate-secret';

/**
 * Webhook creation for a sub-client: not shown. Assumed `clientId` in the JSON body, like reports
 * (a subscription delivers events of the client it was created under).
 */
export const WEBHOOK_CLIENT_ID_IN_BODY = true;

/**
 * Envelopes of webhooks (create/list/update/rotate), clients, documents and the signed URL: not
 * shown. Assumed the read envelope `{ message, data }`; a bare object or array (no `data`) is
 * accepted as well. Lists may carry `paging`, which is ignored (a single page is returned).
 */
export const ENVELOPE_DATA_KEY = 'data';

/**
 * Documents list parameters: not shown. Assumed to take `clientId` like the other reads; any
 * further query parameters are passed through untyped.
 */
export const DOCUMENTS_TAKE_CLIENT_ID = true;

/** The signed-URL response is assumed to carry `signedUrl` (the DocumentStructure field name). */
export const SIGNED_URL_FIELD = 'signedUrl';

// The following are decided in the schemas themselves and only recorded here:
//
// Webhook delivery envelope: only `data` is documented. This project reads it tolerantly as
// `{ id?, event, timestamp?, clientId?, data }` (schemas/webhook-events.ts): `event` names the event
// and is required; `id` (the delivery id), `timestamp` and `clientId` are optional and read as absent
// when of another type; `data` may be absent on webhook.test, and every incident event requires
// `data.incidentId`. The sandbox sends all five.
//
// A webhook subscription record is assumed to carry an `id` (PATCH/DELETE address /v1/webhooks/{id});
// creation requires `description` because the spec lists it with url and events.
//
// "Total request size must stay under 10 MB" is read as 10 000 000 bytes, the stricter reading
// (MAX_REPORT_BYTES in schemas/requests/report.ts); the encoded multipart body is checked too.
//
// A report without incidentType needs `url` "unless subject is given" (the contract, read as written
// rather than by an earlier stricter reading): a `subject` alone must then be a URL or domain itself.
//
// The status filters (`status`, `statusVerbose`) accept only the documented verbose statuses.
//
// Reader tolerance where the spec states no presence (schemas/): every field inside the insights
// categories and inside snapshot dns/whois/certificate is optional; snapshot `description` is
// optional; a document uploader's name/surname may be null like a user's.
//
// Rate limiting is not shown: 429 is handled like a 503 (retried on reads, on approve-takedown and
// on webhook update/delete, honouring Retry-After; see client/operations.ts).
