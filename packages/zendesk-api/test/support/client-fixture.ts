import { vi } from 'vitest';
import { ZendeskClient, type ZendeskClientOptions, type ZendeskTokenProvider } from '../../src';
import type { FakeZendesk } from './fake-zendesk';

interface FakeTokens extends ZendeskTokenProvider {
  getAccessToken: ReturnType<typeof vi.fn<() => Promise<string>>>;
  refreshAfterUnauthorized: ReturnType<typeof vi.fn<(rejected: string) => Promise<string>>>;
}

/** Hands out token-1 until a refresh, then token-2, token-3, ... */
function fakeTokens(): FakeTokens {
  let generation = 1;
  return {
    getAccessToken: vi.fn(async () => `token-${generation}`),
    refreshAfterUnauthorized: vi.fn(async () => {
      generation += 1;
      return `token-${generation}`;
    }),
  };
}

export interface ClientFixture {
  client: ZendeskClient;
  tokens: FakeTokens;
  /** Every delay the client asked to wait before a retry. */
  delays: number[];
}

export function clientFor(
  fake: FakeZendesk,
  overrides: Partial<ZendeskClientOptions> = {},
): ClientFixture {
  const tokens = fakeTokens();
  const delays: number[] = [];
  const { retry, ...rest } = overrides;
  const client = new ZendeskClient({
    baseUrl: fake.url,
    tokenProvider: tokens,
    retry: retry === false ? false : { initialDelayMs: 10, ...retry },
    sleep: async (ms) => {
      delays.push(ms);
    },
    ...rest,
  });
  return { client, tokens, delays };
}
