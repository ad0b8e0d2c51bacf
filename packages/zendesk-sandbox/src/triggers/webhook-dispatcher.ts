import { ulid } from 'ulid';
import type { AccountRecord, DeliveryRecord, WebhookRecord } from '../state/model';
import type { SandboxState } from '../state/sandbox-state';
import { signWebhook } from './sign-webhook';

export interface WebhookDispatchOptions {
  /** Retries after a 409 (Zendesk retries 409 up to three times). Delays in ms, one per retry. */
  retryDelaysMs: number[];
  /** Longest Retry-After (seconds) honoured for 429 / 503; Zendesk retries only below 60 s. */
  maxRetryAfterSeconds: number;
  /** Scale applied to Retry-After so tests need not wait whole seconds (1 = real time). */
  retryAfterScale: number;
  timeoutMs: number;
  fetch: typeof fetch;
}

export const DEFAULT_WEBHOOK_DISPATCH: WebhookDispatchOptions = {
  retryDelaysMs: [1_000, 5_000, 15_000],
  maxRetryAfterSeconds: 59,
  retryAfterScale: 1,
  timeoutMs: 12_000,
  fetch: (input, init) => fetch(input, init),
};

export function authHeaders(webhook: WebhookRecord): Record<string, string> {
  const auth = webhook.authentication;
  if (!auth) return {};
  if (auth.type === 'bearer_token') return { Authorization: `Bearer ${auth.data.token ?? ''}` };
  if (auth.type === 'basic_auth') {
    return {
      Authorization: `Basic ${Buffer.from(`${auth.data.username ?? ''}:${auth.data.password ?? ''}`).toString('base64')}`,
    };
  }
  if (auth.type === 'api_key' && auth.data.name) return { [auth.data.name]: auth.data.value ?? '' };
  return {};
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends signed webhook requests with Zendesk's headers and retry rules, and records every attempt. */
export class WebhookDispatcher {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly state: SandboxState,
    private readonly options: WebhookDispatchOptions,
  ) {}

  /** Queues a delivery; returns at once, like Zendesk's asynchronous webhook jobs. */
  dispatch(
    account: AccountRecord,
    webhook: WebhookRecord,
    body: string,
    origin: { triggerId: number | null; ticketId: number | null },
  ): DeliveryRecord {
    const record: DeliveryRecord = {
      invocation_id: String(this.state.id()),
      webhook_id: webhook.id,
      trigger_id: origin.triggerId,
      ticket_id: origin.ticketId,
      endpoint: webhook.endpoint,
      body,
      duplicate: false,
      attempts: [],
      state: 'pending',
    };
    account.deliveries.push(record);
    this.track(this.deliver(account, webhook, record));
    if (account.duplicateNextDeliveries > 0) {
      account.duplicateNextDeliveries -= 1;
      const duplicate: DeliveryRecord = {
        ...record,
        duplicate: true,
        attempts: [],
        state: 'pending',
      };
      account.deliveries.push(duplicate);
      this.track(this.deliver(account, webhook, duplicate));
    }
    return record;
  }

  /**
   * Deliveries a saved state left pending (the sandbox stopped before they were done) are sent
   * again, as Zendesk's queued webhook jobs outlive a restart of one of its workers.
   */
  resumePending(account: AccountRecord): void {
    for (const record of account.deliveries) {
      if (record.state !== 'pending') continue;
      const webhook = account.webhooks.get(record.webhook_id);
      if (!webhook) {
        record.state = 'failed';
        continue;
      }
      this.track(this.deliver(account, webhook, record));
    }
  }

  /** One request, no retries: the webhook test endpoint. */
  async sendOnce(input: {
    accountId: number;
    webhookId: string;
    endpoint: string;
    method: string;
    secret: string;
    body: string;
    headers: Record<string, string>;
  }): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    const response = await this.send(
      input.accountId,
      input.webhookId,
      ulid(),
      input.endpoint,
      input.method,
      input.secret,
      input.body,
      input.headers,
    );
    return {
      status: response.status,
      headers: Object.fromEntries(response.headers.entries()),
      body: await response.text(),
    };
  }

  /** Resolves when every queued delivery (with its retries) has finished. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  private async deliver(
    account: AccountRecord,
    webhook: WebhookRecord,
    record: DeliveryRecord,
  ): Promise<void> {
    let conflictRetries = 0;
    for (;;) {
      let status: number | null = null;
      let retryAfter: number | null = null;
      try {
        const response = await this.send(
          account.id,
          webhook.id,
          record.invocation_id,
          webhook.endpoint,
          webhook.http_method,
          webhook.secret,
          record.body,
          { ...webhook.custom_headers, ...authHeaders(webhook) },
        );
        status = response.status;
        const header = response.headers.get('retry-after');
        retryAfter = header !== null && /^\d+$/.test(header) ? Number(header) : null;
        await response.arrayBuffer().catch(() => undefined);
        record.attempts.push({ at: this.state.isoNow(), status, error: null });
      } catch (error) {
        record.attempts.push({
          at: this.state.isoNow(),
          status: null,
          error: error instanceof Error ? error.message : String(error),
        });
      }
      this.state.markChanged();
      if (status !== null && status >= 200 && status < 300) {
        record.state = 'succeeded';
        this.state.markChanged();
        return;
      }
      if (status === 409 && conflictRetries < this.options.retryDelaysMs.length) {
        await sleep(this.options.retryDelaysMs[conflictRetries] ?? 0);
        conflictRetries += 1;
        continue;
      }
      if (
        (status === 429 || status === 503) &&
        retryAfter !== null &&
        retryAfter <= this.options.maxRetryAfterSeconds &&
        record.attempts.length <= this.options.retryDelaysMs.length
      ) {
        await sleep(retryAfter * 1000 * this.options.retryAfterScale);
        continue;
      }
      record.state = 'failed';
      this.state.markChanged();
      return;
    }
  }

  private async send(
    accountId: number,
    webhookId: string,
    invocationId: string,
    endpoint: string,
    method: string,
    secret: string,
    body: string,
    extraHeaders: Record<string, string>,
  ): Promise<Response> {
    const timestamp = this.state.isoNow();
    const headers: Record<string, string> = {
      ...extraHeaders,
      'Content-Type': 'application/json; charset=utf-8',
      'User-Agent': 'Zendesk Webhook',
      'X-Zendesk-Account-Id': String(accountId),
      'X-Zendesk-Webhook-Id': webhookId,
      'X-Zendesk-Webhook-Invocation-Id': invocationId,
      'X-Zendesk-Webhook-Signature': signWebhook(secret, timestamp, body),
      'X-Zendesk-Webhook-Signature-Timestamp': timestamp,
    };
    const hasBody = method !== 'GET' && method !== 'DELETE';
    return this.options.fetch(endpoint, {
      method,
      headers,
      ...(hasBody ? { body } : {}),
      signal: AbortSignal.timeout(this.options.timeoutMs),
    });
  }
}
