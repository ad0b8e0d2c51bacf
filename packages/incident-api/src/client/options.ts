import type { RetryPolicy } from './retry';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface IncidentClientOptions {
  /** Service address without `/v1`, e.g. `https://api.example.com`. Required. */
  baseURL: string;
  /** Sent as `x-api-key` on every request. Required. */
  apiKey: string;
  /**
   * Sub-client to act for by default (parent or reseller keys). Sent where the spec takes a
   * clientId (reports, incidents, resolutions, usage, users, webhooks.create, documents.list)
   * unless the call names its own. Default: none (the key owner).
   */
  clientId?: string;
  /** Default: global fetch. */
  fetch?: FetchLike;
  /** Per attempt, in ms. Default 60 000. */
  timeoutMs?: number;
  /** Merged over DEFAULT_RETRY_POLICY; `false` disables retries. */
  retry?: Partial<RetryPolicy> | false;
  /** Default `incident-desk-incident-api/0.1`. */
  userAgent?: string;
  /** Waits between retries; injectable so tests can observe delays without sleeping. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Ends every call of this client once it fires, like a per-call `signal`. Default: none. */
  signal?: AbortSignal;
  /** Told about every attempt (metrics); must not throw. Default: none. */
  observer?: IncidentCallObserver;
}

/** One attempt of a call, as an observer sees it: never a URL, body or key. */
export interface IncidentCallObservation {
  /** The spec's operation (e.g. `incidents.report`). */
  operation: string;
  method: string;
  /** The response's status, or `connection` / `timeout` / `aborted` when none came. */
  status: number | 'connection' | 'timeout' | 'aborted';
  /** Whether the client tries again after this attempt (a 429, a 5xx on a retryable call). */
  retry: boolean;
  durationMs: number;
}

export type IncidentCallObserver = (call: IncidentCallObservation) => void;

export interface RequestOptions {
  signal?: AbortSignal;
  /** overrides the client's timeoutMs for this call */
  timeoutMs?: number;
  /** overrides the policy's maxRetries for this call */
  maxRetries?: number;
  /** extra headers for this call */
  headers?: Record<string, string>;
}

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_USER_AGENT = 'incident-desk-incident-api/0.1';
