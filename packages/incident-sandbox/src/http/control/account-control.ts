import { Router } from 'express';
import type { ClientRecord } from '../../state/model';
import { HttpError } from '../errors';
import { verifySignedUrl } from '../routes/documents';
import { findClientForControl, updateClient } from './client-operations';
import type { ControlDeps } from './control-deps';
import { parse } from './parse-body';
import { ZCreateClient, ZCreateDocument, ZCreateKey, ZCreateUser, ZUpdateClient } from './schemas';

/** Clients, keys, users and documents. */
export function accountControlRoutes(deps: ControlDeps): Router {
  const { store } = deps;
  const router = Router();
  const requireClient = (id: string): ClientRecord => findClientForControl(deps, id);
  /** A new record as the service stores it: its id first, created and updated now. */
  const stamped = <T extends object>(id: string, fields: T) => {
    const now = store.now();
    return { id, ...fields, createdAt: now, updatedAt: now };
  };

  router.post('/clients', (req, res) => {
    const body = parse(ZCreateClient, req);
    const id = body.id ?? store.newId('client', 'cl_', 12);
    if (store.client(id)) throw new HttpError(409, `Client ${id} already exists`);
    if (body.parentClientId) requireClient(body.parentClientId);
    const client: ClientRecord = {
      id,
      name: body.name,
      active: body.active ?? true,
      parentClientId: body.parentClientId ?? null,
      safeDomain: body.safeDomain ?? `${id.replace(/[^a-z0-9]/gi, '-').toLowerCase()}.example`,
      resolutionsEnabled: body.resolutionsEnabled ?? true,
      credits: body.credits === undefined ? 10 : body.credits,
      creditsExpireAt: body.creditsExpireAt ?? null,
      approvalConsumesCredit: body.approvalConsumesCredit ?? true,
    };
    store.state.clients.push(client);
    // A parent's keys may act for its new sub-client, like the real parent/reseller accounts.
    if (client.parentClientId) {
      for (const key of store.state.apiKeys) {
        if (key.clientId === client.parentClientId && !key.clientIds.includes(id))
          key.clientIds.push(id);
      }
    }
    store.changed();
    res.status(201).json(client);
  });

  router.patch('/clients/:id', (req, res) => {
    const client = requireClient(String(req.params.id));
    updateClient(deps, client, parse(ZUpdateClient, req));
    res.json(client);
  });

  router.post('/keys', (req, res) => {
    const body = parse(ZCreateKey, req);
    const clientIds = [...new Set([body.clientId, ...(body.clientIds ?? [])])];
    clientIds.forEach(requireClient);
    const key = {
      key: body.key ?? store.newId('api-key', 'sbx_key_', 24),
      clientId: body.clientId,
      clientIds,
      scopes: body.scopes ?? ['incidents:read'],
    };
    if (store.state.apiKeys.some((k) => k.key === key.key))
      throw new HttpError(409, 'Key already exists');
    store.state.apiKeys.push(key);
    store.changed();
    res.status(201).json(key);
  });

  router.post('/users', (req, res) => {
    const body = parse(ZCreateUser, req);
    if (body.clientId) requireClient(body.clientId);
    const user = stamped(store.newId('user', 'usr_', 12), {
      email: body.email,
      name: body.name ?? null,
      surname: body.surname ?? null,
      roles: body.roles,
      clientId: body.clientId,
      mfaEnabled: body.mfaEnabled ?? false,
    });
    store.state.users.push(user);
    store.changed();
    res.status(201).json(user);
  });

  router.post('/documents', (req, res) => {
    const body = parse(ZCreateDocument, req);
    requireClient(body.clientId);
    const doc = stamped(store.newId('document', 'doc_', 12), {
      clientId: body.clientId,
      docType: body.docType,
      fileName: body.fileName ?? null,
      uploadedBy: body.uploadedBy ?? null,
    });
    store.state.documents.push(doc);
    store.changed();
    res.status(201).json(doc);
  });

  router.get('/documents/:id/download', (req, res) => {
    const { expires, signature } = req.query;
    const doc = store.state.documents.find((d) => d.id === req.params.id);
    if (
      !doc ||
      typeof expires !== 'string' ||
      typeof signature !== 'string' ||
      !verifySignedUrl(doc.id, expires, signature, store.nowMs())
    ) {
      throw new HttpError(403, 'Signed URL invalid or expired');
    }
    res
      .type('text/plain')
      .attachment(doc.fileName ?? `${doc.id}.txt`)
      .send(`Sandbox placeholder for document ${doc.id} (${doc.docType}).\n`);
  });

  return router;
}
