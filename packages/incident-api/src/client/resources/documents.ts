import { DOCUMENTS_TAKE_CLIENT_ID } from '../../assumptions';
import { ZDocument, type TDocument } from '../../schemas/document';
import { looseData, looseList, ZSignedUrl, type SignedUrl } from '../loose';
import type { RequestOptions } from '../options';
import { path } from '../path';
import type { QueryValue, Transport } from '../transport';
import { withClientId } from './with-client-id';

/** Parameters and envelopes beyond DocumentStructure are assumed (assumptions.ts). */
export class DocumentsResource {
  constructor(private readonly transport: Transport) {}

  /** GET /v1/documents (one page as returned; further paging is not shown). */
  async list(
    query: { clientId?: string; [key: string]: QueryValue } = {},
    options?: RequestOptions,
  ): Promise<TDocument[]> {
    const result = await this.transport.request({
      operation: 'documents.list',
      method: 'GET',
      path: '/v1/documents',
      query: DOCUMENTS_TAKE_CLIENT_ID ? withClientId(this.transport, query) : query,
      schema: looseList(ZDocument),
      options,
    });
    return result.data;
  }

  /** GET /v1/documents/{documentId}; carries signedUrl. */
  async retrieve(documentId: string, options?: RequestOptions): Promise<TDocument> {
    const result = await this.transport.request({
      operation: 'documents.retrieve',
      method: 'GET',
      path: path`/v1/documents/${documentId}`,
      schema: looseData(ZDocument),
      options,
    });
    return result.data;
  }

  /** GET /v1/documents/{documentId}/signed-url: a short-lived download address. */
  async signedUrl(documentId: string, options?: RequestOptions): Promise<SignedUrl> {
    const result = await this.transport.request({
      operation: 'documents.signedUrl',
      method: 'GET',
      path: path`/v1/documents/${documentId}/signed-url`,
      schema: looseData(ZSignedUrl),
      options,
    });
    return result.data as SignedUrl;
  }
}
