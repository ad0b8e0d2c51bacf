import type { HttpTransport } from '../core/http-transport';
import type { ZendeskRequestOptions } from '../core/options';
import { parseRequest } from '../core/parse-request';
import { z } from 'zod';
import { type TUpload, ZUploadResponse } from '../schemas/upload';

export interface UploadCreateInput {
  filename: string;
  data: Uint8Array | ArrayBuffer | Blob;
  /** Default: `application/binary`, as Zendesk's examples send. */
  contentType?: string | undefined;
  /** Adds the file to an existing upload instead of starting a new one. */
  token?: string | undefined;
}

const ZUploadParams = z.strictObject({
  filename: z.string().min(1).max(255),
  contentType: z.string().min(1).optional(),
  token: z.string().min(1).optional(),
});

export class Uploads {
  constructor(private readonly transport: HttpTransport) {}

  /**
   * POST /api/v2/uploads.json?filename=... with the raw bytes; returns the upload whose `token`
   * goes into a comment's `uploads`. Never retried on 5xx / connection errors unless the client
   * is configured with retryNonIdempotent (a retry could store the file twice).
   */
  async create(input: UploadCreateInput, options?: ZendeskRequestOptions): Promise<TUpload> {
    const { data, ...rest } = input;
    const params = parseRequest(ZUploadParams, rest, 'upload');
    const response = await this.transport.json(
      {
        method: 'POST',
        path: `/api/v2/uploads.json`,
        query: { filename: params.filename, token: params.token },
        binary: { data, contentType: params.contentType ?? 'application/binary' },
        options,
      },
      ZUploadResponse,
    );
    return response.upload;
  }
}
