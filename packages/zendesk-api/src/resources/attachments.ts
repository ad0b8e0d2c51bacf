import { ZendeskAttachmentTooLargeError, ZendeskRequestValidationError } from '../core/errors';
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

export class Attachments {
  constructor(private readonly transport: HttpTransport) {}

  /** Downloads a comment attachment's `content_url` into memory. */
  async download(contentUrl: string, options: AttachmentDownloadOptions): Promise<DownloadedAttachment> {
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
    const url = parseContentUrl(contentUrl);
    const response = await this.transport.raw({
      method: 'GET',
      path: url.pathname,
      absoluteUrl: url,
      // The token goes only to the account's own origin (private attachments need it);
      // fetch drops it again if Zendesk redirects to its file storage host.
      authenticate: this.transport.isSameOriginAsBase(url),
      headers: { accept: '*/*' },
      options,
    });
    const contentLength = parseContentLength(response.headers.get('content-length'));
    if (contentLength !== undefined && contentLength > maxBytes) {
      await response.body?.cancel();
      throw new ZendeskAttachmentTooLargeError(maxBytes, contentLength);
    }
    const source = response.body ?? new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
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

function parseContentUrl(contentUrl: string): URL {
  let url: URL;
  try {
    url = new URL(contentUrl);
  } catch {
    throw new ZendeskRequestValidationError(`content_url is not an absolute URL: ${JSON.stringify(contentUrl)}`);
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
