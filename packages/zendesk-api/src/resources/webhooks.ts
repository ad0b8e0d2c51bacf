import { encodePath } from '../core/encode-path';
import type { HttpTransport } from '../core/http-transport';
import type { ZendeskRequestOptions } from '../core/options';
import { type CursorPage, cursorList, type PagePromise } from '../core/pagination';
import { parseRequest } from '../core/parse-request';
import { RecordWrites } from '../core/write-record';
import {
  type TWebhook,
  type TWebhookCreateInput,
  type TWebhookSigningSecret,
  type TWebhookTestRequest,
  type TWebhookTestResult,
  type TWebhookUpdateInput,
  ZWebhookCreateInput,
  ZWebhookResponse,
  ZWebhooksResponse,
  ZWebhookSigningSecretResponse,
  ZWebhookTestRequest,
  ZWebhookTestResponse,
  ZWebhookUpdateInput,
} from '../schemas/webhook';

export class WebhookSigningSecrets {
  constructor(private readonly transport: HttpTransport) {}

  /** GET /api/v2/webhooks/{id}/signing_secret */
  async show(webhookId: string, options?: ZendeskRequestOptions): Promise<TWebhookSigningSecret> {
    const response = await this.transport.json(
      { method: 'GET', path: encodePath`/api/v2/webhooks/${webhookId}/signing_secret`, options },
      ZWebhookSigningSecretResponse,
    );
    return response.signing_secret;
  }

  /** POST /api/v2/webhooks/{id}/signing_secret: issues a new secret; the old one stops working. */
  async reset(webhookId: string, options?: ZendeskRequestOptions): Promise<TWebhookSigningSecret> {
    const response = await this.transport.json(
      { method: 'POST', path: encodePath`/api/v2/webhooks/${webhookId}/signing_secret`, options },
      ZWebhookSigningSecretResponse,
    );
    return response.signing_secret;
  }
}

export class Webhooks {
  readonly signingSecret: WebhookSigningSecrets;

  constructor(private readonly transport: HttpTransport) {
    this.signingSecret = new WebhookSigningSecrets(transport);
  }

  /** POST /api/v2/webhooks */
  create(input: TWebhookCreateInput, options?: ZendeskRequestOptions): Promise<TWebhook> {
    return new RecordWrites(this.transport, {
      key: 'webhook',
      answer: ZWebhookResponse,
      what: 'webhook',
      collection: '/api/v2/webhooks',
      suffix: '',
    }).create(ZWebhookCreateInput, input, options);
  }

  /** GET /api/v2/webhooks, cursor-paginated. */
  list(options?: ZendeskRequestOptions): PagePromise<CursorPage<TWebhook>, TWebhook> {
    return cursorList(
      (afterCursor) =>
        this.transport.json(
          {
            method: 'GET',
            path: '/api/v2/webhooks',
            query: { 'page[size]': 100, 'page[after]': afterCursor },
            options,
          },
          ZWebhooksResponse,
        ),
      (answer) => answer.webhooks,
    );
  }

  /** PATCH /api/v2/webhooks/{id} (204): changes only the given fields. */
  async update(
    webhookId: string,
    input: TWebhookUpdateInput,
    options?: ZendeskRequestOptions,
  ): Promise<void> {
    const webhook = parseRequest(ZWebhookUpdateInput, input, 'webhook update');
    await this.transport.empty({
      method: 'PATCH',
      path: encodePath`/api/v2/webhooks/${webhookId}`,
      json: { webhook },
      options,
    });
  }

  /** DELETE /api/v2/webhooks/{id} (204). */
  async delete(webhookId: string, options?: ZendeskRequestOptions): Promise<void> {
    await this.transport.empty({
      method: 'DELETE',
      path: encodePath`/api/v2/webhooks/${webhookId}`,
      options,
    });
  }

  /** GET /api/v2/webhooks/{id} */
  async show(webhookId: string, options?: ZendeskRequestOptions): Promise<TWebhook> {
    const response = await this.transport.json(
      { method: 'GET', path: encodePath`/api/v2/webhooks/${webhookId}`, options },
      ZWebhookResponse,
    );
    return response.webhook;
  }

  /**
   * POST /api/v2/webhooks/test?webhook_id={id}: Zendesk sends `request` to its endpoint once,
   * signed with the webhook's own secret, and answers with the endpoint's status. Needs
   * `webhooks:write` (or `write`), as an admin. The id also goes in the body, where the local
   * sandbox reads it.
   */
  async test(
    webhookId: string,
    request: TWebhookTestRequest,
    options?: ZendeskRequestOptions,
  ): Promise<TWebhookTestResult> {
    const body = parseRequest(ZWebhookTestRequest, request, 'webhook test');
    const answer = await this.transport.json(
      {
        method: 'POST',
        path: '/api/v2/webhooks/test',
        query: { webhook_id: webhookId },
        json: { webhook_id: webhookId, request: body },
        requiredScope: 'webhooks:write',
        options,
      },
      ZWebhookTestResponse,
    );
    return answer.response;
  }
}
