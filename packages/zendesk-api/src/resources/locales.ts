import type { HttpTransport } from '../core/http-transport';
import type { ZendeskRequestOptions } from '../core/options';
import { type TLocale, ZLocalesResponse } from '../schemas/locale';

export class Locales {
  constructor(private readonly transport: HttpTransport) {}

  /** GET /api/v2/locales.json: the languages of the account (one page; accounts have few). */
  async list(options?: ZendeskRequestOptions): Promise<TLocale[]> {
    const answer = await this.transport.json(
      { method: 'GET', path: '/api/v2/locales.json', requiredScope: 'read', options },
      ZLocalesResponse,
    );
    return answer.locales;
  }

  /** The account's default language (e.g. `en-US`, `fr`), or null when no locale is marked default. */
  async accountDefault(options?: ZendeskRequestOptions): Promise<string | null> {
    return (await this.list(options)).find((locale) => locale.default === true)?.locale ?? null;
  }
}
