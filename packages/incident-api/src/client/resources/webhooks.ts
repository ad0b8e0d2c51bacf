import {
  WEBHOOK_CLIENT_ID_IN_BODY,
  WEBHOOK_ROTATE_SECRET_PATH_SUFFIX,
  WEBHOOK_TEST_PATH_SUFFIX,
} from '../../assumptions';
import {
  ZWebhookCreateRequest,
  ZWebhookUpdateRequest,
  type TWebhookCreateRequest,
  type TWebhookUpdateRequest,
} from '../../schemas/requests/webhook-create';
import {
  looseData,
  looseList,
  ZAnyResponse,
  ZRotatedSecret,
  ZWebhookCreated,
  ZWebhookSubscriptionRecord,
  type TRotatedSecret,
  type TWebhookCreated,
  type TWebhookSubscriptionRecord,
} from '../loose';
import type { RequestOptions } from '../options';
import { path } from '../path';
import type { Transport } from '../transport';
import { validateRequest } from '../validate';
import { withClientId } from './with-client-id';

/** Only creation is documented; the rest is assumed (assumptions.ts) and loosely typed. */
export class WebhooksResource {
  constructor(private readonly transport: Transport) {}

  /** POST /v1/webhooks. The answer carries the signing secret, this once. Never retried. */
  async create(request: TWebhookCreateRequest, options?: RequestOptions): Promise<TWebhookCreated> {
    const input = WEBHOOK_CLIENT_ID_IN_BODY ? withClientId(this.transport, request) : request;
    const body = validateRequest(ZWebhookCreateRequest, input, 'webhook subscription');
    const result = await this.transport.request({
      operation: 'webhooks.create',
      method: 'POST',
      path: '/v1/webhooks',
      body: { kind: 'json', value: body },
      schema: looseData(ZWebhookCreated),
      options,
    });
    return result.data;
  }

  /** GET /v1/webhooks */
  async list(options?: RequestOptions): Promise<TWebhookSubscriptionRecord[]> {
    const result = await this.transport.request({
      operation: 'webhooks.list',
      method: 'GET',
      path: '/v1/webhooks',
      schema: looseList(ZWebhookSubscriptionRecord),
      options,
    });
    return result.data;
  }

  /** PATCH /v1/webhooks/{id} */
  async update(
    id: string,
    request: TWebhookUpdateRequest,
    options?: RequestOptions,
  ): Promise<unknown> {
    const body = validateRequest(ZWebhookUpdateRequest, request, 'webhook update');
    const result = await this.transport.request({
      operation: 'webhooks.update',
      method: 'PATCH',
      path: path`/v1/webhooks/${id}`,
      body: { kind: 'json', value: body },
      schema: ZAnyResponse,
      options,
    });
    return result.data;
  }

  /** DELETE /v1/webhooks/{id} */
  async delete(id: string, options?: RequestOptions): Promise<unknown> {
    const result = await this.transport.request({
      operation: 'webhooks.delete',
      method: 'DELETE',
      path: path`/v1/webhooks/${id}`,
      schema: ZAnyResponse,
      options,
    });
    return result.data;
  }

  /** Test delivery (sends webhook.test). Path assumed: POST /v1/webhooks/{id}/test. */
  async test(id: string, options?: RequestOptions): Promise<unknown> {
    const result = await this.transport.request({
      operation: 'webhooks.test',
      method: 'POST',
      path: `${path`/v1/webhooks/${id}`}/${WEBHOOK_TEST_PATH_SUFFIX}`,
      schema: ZAnyResponse,
      options,
    });
    return result.data;
  }

  /** Secret rotation; the answer carries the new secret. Path assumed: POST /v1/webhooks/{id}/rotate-secret. */
  async rotateSecret(id: string, options?: RequestOptions): Promise<TRotatedSecret> {
    const result = await this.transport.request({
      operation: 'webhooks.rotateSecret',
      method: 'POST',
      path: `${path`/v1/webhooks/${id}`}/${WEBHOOK_ROTATE_SECRET_PATH_SUFFIX}`,
      schema: looseData(ZRotatedSecret),
      options,
    });
    return result.data;
  }
}
