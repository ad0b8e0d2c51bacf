import type { AttachmentSources } from '../core/attachment-sources';
import {
  ZendeskAttachmentRefusedError,
  ZendeskAttachmentTooLargeError,
  ZendeskRequestValidationError,
} from '../core/errors';
import type { HttpTransport } from '../core/http-transport';
import type { ZendeskRequestOptions } from '../core/options';

export interface AttachmentDownloadOptions extends ZendeskRequestOptions {
  /** Larger files fail with ZendeskAttachmentTooLargeError, before or while reading. */
  maxBytes: number;
}

export interface DownloadedAttachment {
  data: Buffer;
  contentType: string | undefined;
  size: number;
}

export interface AttachmentStream {
  /** Errors with ZendeskAttachmentTooLargeError once more than maxBytes arrive. */
  body: ReadableStream<Uint8Array>;
  contentType: string | undefined;
  contentLength: number | undefined;
}

/** Zendesk answers a content_url with one redirect to a temporary download URL; a few more are tolerated. */
const MAX_REDIRECTS = 3;

export class Attachments {
  constructor(
    private readonly transport: HttpTransport,
    private readonly sources: AttachmentSources,
  ) {}

  /** Downloads a comment attachment's `content_url` into memory. */
  async download(
    contentUrl: string,
    options: AttachmentDownloadOptions,
  ): Promise<DownloadedAttachment> {
    const { body, contentType } = await this.stream(contentUrl, options);
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.byteLength;
    }
    return { data: Buffer.concat(chunks, size), contentType, size };
  }

  /** Opens a comment attachment's `content_url` as a size-limited stream. */
  async stream(contentUrl: string, options: AttachmentDownloadOptions): Promise<AttachmentStream> {
    const { maxBytes } = options;
    if (!Number.isInteger(maxBytes) || maxBytes < 0) {
      throw new ZendeskRequestValidationError('maxBytes must be a non-negative integer');
    }
    let url = parseContentUrl(contentUrl);
    let response: Response;
    for (let redirects = 0; ; redirects += 1) {
      // every hop is checked: a redirect may point anywhere
      const source = this.sources.classify(url);
      response = await this.transport.raw({
        method: 'GET',
        path: url.pathname,
        absoluteUrl: url,
        // the token goes only to the account's own origin (private attachments need it)
        authenticate: source === 'account',
        fetch: source === 'checked-host' ? this.sources.fetchForCheckedHosts() : undefined,
        returnRedirects: true,
        headers: { accept: '*/*' },
        options,
      });
      if (response.status < 300 || response.status >= 400) break;
      if (redirects === MAX_REDIRECTS)
        throw new ZendeskAttachmentRefusedError('too_many_redirects', url.host);
      url = redirectTarget(response.headers.get('location'), url);
    }
    const contentLength = parseContentLength(response.headers.get('content-length'));
    if (contentLength !== undefined && contentLength > maxBytes) {
      await response.body?.cancel();
      throw new ZendeskAttachmentTooLargeError(maxBytes, contentLength);
    }
    const source =
      response.body ??
      new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
    return {
      body: source.pipeThrough(limitBytes(maxBytes)),
      contentType: response.headers.get('content-type') ?? undefined,
      contentLength,
    };
  }
}

function limitBytes(maxBytes: number): TransformStream<Uint8Array, Uint8Array> {
  let received = 0;
  return new TransformStream({
    transform(chunk, controller) {
      received += chunk.byteLength;
      if (received > maxBytes) {
        controller.error(new ZendeskAttachmentTooLargeError(maxBytes));
        return;
      }
      controller.enqueue(chunk);
    },
  });
}

function redirectTarget(location: string | null, from: URL): URL {
  let target: URL;
  try {
    target = new URL(location ?? '', from);
  } catch {
    throw new ZendeskAttachmentRefusedError('bad_redirect', from.host);
  }
  if (location === null || (target.protocol !== 'https:' && target.protocol !== 'http:')) {
    throw new ZendeskAttachmentRefusedError('bad_redirect', from.host);
  }
  return target;
}

function parseContentUrl(contentUrl: string): URL {
  let url: URL;
  try {
    url = new URL(contentUrl);
  } catch {
    throw new ZendeskRequestValidationError(
      `content_url is not an absolute URL: ${JSON.stringify(contentUrl)}`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ZendeskRequestValidationError(`content_url must use http or https: ${url.protocol}`);
  }
  return url;
}

function parseContentLength(value: string | null): number | undefined {
  if (value === null || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}
