/** The part of the ZAF SDK client the sidebar uses; tests provide a fake with the same shape. */
export interface ZafClient {
  on(name: string, handler: (payload?: unknown) => void): void;
  off(name: string, handler: (payload?: unknown) => void): void;
  get(path: string | string[]): Promise<Record<string, unknown>>;
  invoke(name: string, ...args: unknown[]): Promise<unknown>;
  request(options: ZafRequestOptions): Promise<unknown>;
  metadata(): Promise<ZafMetadata>;
  context(): Promise<ZafContext>;
}

export interface ZafMetadata {
  appId?: number;
  installationId?: number;
  settings?: Record<string, unknown>;
}

export interface ZafContext {
  product?: string;
  location?: string;
  ticketId?: number;
  account?: { subdomain?: string };
  instanceGuid?: string;
}

export interface ZafJwtOptions {
  algorithm: 'HS256';
  secret_key: string;
  expiry: number;
  claims: Record<string, string | number>;
}

export interface ZafRequestOptions {
  url: string;
  type: 'GET' | 'POST';
  contentType?: string;
  data?: string;
  headers?: Record<string, string>;
  secure?: boolean;
  cors?: boolean;
  httpCompleteResponse?: boolean;
  timeout?: number;
  jwt?: ZafJwtOptions;
}

/** What client.request resolves with when httpCompleteResponse is true. */
export interface ZafCompleteResponse {
  status: number;
  responseJSON?: unknown;
  responseText?: string;
  headers?: Record<string, string>;
}

/** What client.request rejects with (a jqXHR-like object). */
export interface ZafFailedResponse {
  status?: number;
  statusText?: string;
  responseText?: string;
  responseJSON?: unknown;
  headers?: Record<string, string>;
}
