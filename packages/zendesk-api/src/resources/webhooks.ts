import { encodePath } from '../core/encode-path';
import type { HttpTransport } from '../core/http-transport';
import type { ZendeskRequestOptions } from '../core/options';
import { parseRequest } from '../core/parse-request';
import {
  type TWebhook,
  type TWebhookCreateInput,
  type TWebhookSigningSecret,
  ZWebhookCreateInput,
  ZWebhookResponse,
  ZWebhookSigningSecretResponse,
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
  async create(input: TWebhookCreateInput, options?: ZendeskRequestOptions): Promise<TWebhook> {
    const webhook = parseRequest(ZWebhookCreateInput, input, 'webhook');
    const response = await this.transport.json(
      { method: 'POST', path: '/api/v2/webhooks', json: { webhook }, options },
      ZWebhookResponse,
    );
    return response.webhook;
  }

  /** GET /api/v2/webhooks/{id} */
  async show(webhookId: string, options?: ZendeskRequestOptions): Promise<TWebhook> {
    const response = await this.transport.json(
      { method: 'GET', path: encodePath`/api/v2/webhooks/${webhookId}`, options },
      ZWebhookResponse,
    );
    return response.webhook;
  }
}
