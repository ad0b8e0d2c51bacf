import { encodePath } from '../core/encode-path';
import type { HttpTransport } from '../core/http-transport';
import type { ZendeskRequestOptions } from '../core/options';
import { type TAppInstallation, ZAppInstallationsResponse } from '../schemas/app';

const APPS_READ = 'apps:read';

export class Apps {
  constructor(private readonly transport: HttpTransport) {}

  /** GET /api/v2/apps/installations.json: the account's app installations. */
  async installations(options?: ZendeskRequestOptions): Promise<TAppInstallation[]> {
    const response = await this.transport.json(
      { method: 'GET', path: '/api/v2/apps/installations.json', requiredScope: APPS_READ, options },
      ZAppInstallationsResponse,
    );
    return response.installations;
  }

  /** GET /api/v2/apps/{app_id}/public_key.pem: the key Zendesk signs the app's ZAF JWTs with. */
  async publicKey(appId: number, options?: ZendeskRequestOptions): Promise<string> {
    const response = await this.transport.raw({
      method: 'GET',
      path: encodePath`/api/v2/apps/${appId}/public_key.pem`,
      requiredScope: APPS_READ,
      options,
    });
    return response.text();
  }
}
