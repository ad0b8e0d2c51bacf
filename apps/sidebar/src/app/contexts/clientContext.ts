// The ZAF client's context: what components read through useClient, apart from the provider that
// connects to Zendesk (which renders components itself).
import { createContext } from 'react';
import type { ZafClient, ZafContext, ZafMetadata } from '../zaf/zafClient';

export interface ClientValue {
  client: ZafClient;
  metadata: ZafMetadata;
  context: ZafContext;
}

// null default: useClient() outside the provider throws instead of handing out an empty object.
export const ClientContext = createContext<ClientValue | null>(null);
