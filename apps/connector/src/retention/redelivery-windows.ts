// How late each sender may deliver the same webhook again. A receipt (webhook_receipt) is the
// dedupe ledger: deleted before a redelivery arrives, it lets that delivery be applied twice. So
// RECEIPT_RETENTION_DAYS may not be shorter than the longest of these windows.
import { DAY_MS } from './retention-settings';

/**
 * Zendesk retries a 409 up to three times, and a 429 or 503 whose Retry-After is under 60 s after
 * that delay; nothing else (developer.zendesk.com, "Webhooks API", webhook retries; the Zendesk
 * sandbox imitates it): minutes. Failed deliveries have been sent again hours later after an
 * outage of Zendesk's own (its service incident of 2023-06-07, about five hours), hence a day.
 */
const ZENDESK_REDELIVERY_WINDOW_MS = DAY_MS;

/**
 * The incident service's retry schedule is not specified (Client API, Events rule 9: "not
 * shown"). Assumed to end within three days, the longest schedule common among webhook senders;
 * confirm it with the service and raise this if it retries longer.
 */
const INCIDENT_REDELIVERY_WINDOW_MS = 3 * DAY_MS;

const LONGEST_REDELIVERY_WINDOW_MS = Math.max(
  ZENDESK_REDELIVERY_WINDOW_MS,
  INCIDENT_REDELIVERY_WINDOW_MS,
);

/** The shortest RECEIPT_RETENTION_DAYS accepted: whole days covering every redelivery window. */
export const MIN_RECEIPT_RETENTION_DAYS = Math.ceil(LONGEST_REDELIVERY_WINDOW_MS / DAY_MS);
