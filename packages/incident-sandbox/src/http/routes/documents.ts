import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Router } from 'express';
import type { DocumentRecord } from '../../state/model';
import type { SandboxStore } from '../../state/store';
import { DOC_TYPES } from '../../domain/vocabulary';
import { apiKeyOf, clientScope } from '../auth';
import type { SandboxContext } from '../context';
import { badRequest, notFound } from '../errors';
import { singleValuedQuery } from '../query';

const SIGNED_URL_TTL_MS = 15 * 60 * 1000;
const urlKey = randomBytes(32);

function signature(documentId: string, expires: number): string {
  return createHmac('sha256', urlKey).update(`${documentId}.${expires}`).digest('hex');
}

function signedUrlFor(
  baseUrl: string,
  documentId: string,
  nowMs: number,
): { signedUrl: string; expiresAt: string } {
  const expires = nowMs + SIGNED_URL_TTL_MS;
  const signedUrl = `${baseUrl}/_sandbox/documents/${encodeURIComponent(documentId)}/download?expires=${expires}&signature=${signature(documentId, expires)}`;
  return { signedUrl, expiresAt: new Date(expires).toISOString() };
}

export function verifySignedUrl(
  documentId: string,
  expires: string,
  sig: string,
  nowMs: number,
): boolean {
  const expected = Buffer.from(signature(documentId, Number(expires)));
  const given = Buffer.from(sig);
  return (
    Number(expires) > nowMs && expected.length === given.length && timingSafeEqual(expected, given)
  );
}

function toWire(store: SandboxStore, doc: DocumentRecord, signedUrl?: string | null) {
  const client = store.client(doc.clientId);
  return {
    id: doc.id,
    clientId: doc.clientId,
    client: client
      ? { id: client.id, name: client.name, parentClientId: client.parentClientId }
      : null,
    docType: doc.docType,
    fileName: doc.fileName,
    uploadedBy: doc.uploadedBy,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    ...(signedUrl !== undefined ? { signedUrl } : {}),
  };
}

/** GET /v1/documents, /v1/documents/{id}, /v1/documents/{id}/signed-url. */
export function documentRoutes({ store, baseUrl }: SandboxContext): Router {
  const router = Router();

  router.get('/documents', (req, res) => {
    const q = singleValuedQuery(req);
    const clientIds = clientScope(apiKeyOf(res), q.clientId);
    if (q.docType !== undefined && !(DOC_TYPES as readonly string[]).includes(q.docType)) {
      throw badRequest('docType', `must be one of ${DOC_TYPES.join(', ')}`);
    }
    const docs = store.state.documents.filter(
      (d) => clientIds.includes(d.clientId) && (q.docType === undefined || d.docType === q.docType),
    );
    res.json({ message: 'success', data: docs.map((d) => toWire(store, d)) });
  });

  router.get('/documents/:documentId/signed-url', (req, res) => {
    const q = singleValuedQuery(req);
    const clientIds = clientScope(apiKeyOf(res), q.clientId);
    const doc = store.state.documents.find(
      (d) => d.id === req.params.documentId && clientIds.includes(d.clientId),
    );
    if (!doc) throw notFound('Document');
    res.json({ message: 'success', data: signedUrlFor(baseUrl(), doc.id, store.nowMs()) });
  });

  router.get('/documents/:documentId', (req, res) => {
    const q = singleValuedQuery(req);
    const clientIds = clientScope(apiKeyOf(res), q.clientId);
    const doc = store.state.documents.find(
      (d) => d.id === req.params.documentId && clientIds.includes(d.clientId),
    );
    if (!doc) throw notFound('Document');
    res.json({
      message: 'success',
      data: toWire(store, doc, signedUrlFor(baseUrl(), doc.id, store.nowMs()).signedUrl),
    });
  });

  return router;
}
