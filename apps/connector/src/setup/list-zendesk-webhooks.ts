// ZendeskClient has webhooks.create/show but no list; setup needs the list to find a webhook
// whose id was never stored (or was lost) instead of creating a second one. Remove this file
// once @incident-desk/zendesk-api offers webhooks.list.
import { z } from 'zod';
import { ZWebhook, type TWebhook, type ZendeskTokenProvider } from '@incident-desk/zendesk-api';

export type ListZendeskWebhooks = () => Promise<TWebhook[]>;

const ZWebhooksPage = z.looseObject({
  webhooks: z.array(ZWebhook),
  meta: z
    .looseObject({
      has_more: z.boolean().optional(),
      after_cursor: z.string().nullable().optional(),
    })
    .optional(),
});

export interface ZendeskWebhookListerOptions {
  /** The same base URL as the account's ZendeskClient. */
  baseUrl: string;
  tokenProvider: ZendeskTokenProvider;
  fetch?: typeof fetch;
  /** Guards against a server that never stops paging. Default 20 pages of 100. */
  maxPages?: number;
}

/** GET /api/v2/webhooks, cursor-paginated; one refresh and retry after a 401, like the client. */
export function createZendeskWebhookLister(
  options: ZendeskWebhookListerOptions,
): ListZendeskWebhooks {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');

  const getPage = async (after: string | undefined): Promise<z.infer<typeof ZWebhooksPage>> => {
    const url = new URL(`${base}/api/v2/webhooks`);
    url.searchParams.set('page[size]', '100');
    if (after) url.searchParams.set('page[after]', after);
    let token = await options.tokenProvider.getAccessToken();
    let response = await doFetch(url, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    });
    if (response.status === 401) {
      token = await options.tokenProvider.refreshAfterUnauthorized(token);
      response = await doFetch(url, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      });
    }
    if (!response.ok) {
      throw new Error(
        `GET /api/v2/webhooks answered ${response.status}: ${(await response.text()).slice(0, 200)}`,
      );
    }
    return ZWebhooksPage.parse(await response.json());
  };

  return async () => {
    const all: TWebhook[] = [];
    let after: string | undefined;
    for (let page = 0; page < (options.maxPages ?? 20); page += 1) {
      const result = await getPage(after);
      all.push(...result.webhooks);
      if (!result.meta?.has_more || !result.meta.after_cursor) return all;
      after = result.meta.after_cursor;
    }
    throw new Error('GET /api/v2/webhooks: too many pages');
  };
}
