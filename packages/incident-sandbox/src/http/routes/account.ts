import { Router } from 'express';
import { OPERATOR_EMAIL_DOMAIN, USER_ROLES } from '../../domain/vocabulary';
import type { UserRecord } from '../../state/model';
import { apiKeyOf, clientScope } from '../auth';
import type { SandboxContext } from '../context';
import { badRequest, HttpError, UNAUTHORIZED_CLIENT } from '../errors';
import { parseIntegerParam, singleValuedQuery } from '../query';
import { validateUsageQuery, validateUsersQuery } from '../request-validation';

const MAX_CLIENTS_WITHOUT_CLIENT_ID = 10;

function isStaff(user: UserRecord): boolean {
  return (
    user.roles.includes('admin') ||
    user.clientId === null ||
    user.email.toLowerCase().endsWith(`@${OPERATOR_EMAIL_DOMAIN}`)
  );
}

/** GET /v1/usage, /v1/users and /v1/clients. */
export function accountRoutes({ store }: SandboxContext): Router {
  const router = Router();

  router.get('/usage', (req, res) => {
    const key = apiKeyOf(res);
    const q = singleValuedQuery(req);
    const clientId = q.clientId ?? key.clientId;
    if (!key.clientIds.includes(clientId)) throw new HttpError(401, UNAUTHORIZED_CLIENT);
    validateUsageQuery(q);
    const client = store.client(clientId);
    if (!client) throw new HttpError(401, UNAUTHORIZED_CLIENT);
    const expired =
      client.creditsExpireAt !== null && Date.parse(client.creditsExpireAt) <= store.nowMs();
    const remainingCredits = typeof client.credits === 'number' && expired ? 0 : client.credits;
    res.json({
      message: 'success',
      data: { clientId: client.id, clientName: client.name, remainingCredits },
    });
  });

  router.get('/users', (req, res) => {
    const key = apiKeyOf(res);
    const q = singleValuedQuery(req);
    if (q.clientId === undefined && key.clientIds.length > MAX_CLIENTS_WITHOUT_CLIENT_ID) {
      throw badRequest(
        'clientId',
        `is required when the API key covers more than ${MAX_CLIENTS_WITHOUT_CLIENT_ID} clients`,
      );
    }
    const clientIds = clientScope(key, q.clientId);
    validateUsersQuery(q);
    const limit = parseIntegerParam('limit', q.limit, 1, 200) ?? 200;
    const offset = parseIntegerParam('offset', q.offset, 0, Number.MAX_SAFE_INTEGER) ?? 0;
    if (q.role !== undefined && !(USER_ROLES as readonly string[]).includes(q.role)) {
      throw badRequest('role', `must be one of ${USER_ROLES.join(', ')}`);
    }
    const needle = q.search?.toLowerCase();
    const matching = store.state.users
      .filter((u) => u.clientId !== null && clientIds.includes(u.clientId) && !isStaff(u))
      .filter((u) => q.role === undefined || (u.roles as string[]).includes(q.role))
      .filter(
        (u) =>
          !needle || [u.email, u.name, u.surname].some((v) => v?.toLowerCase().includes(needle)),
      )
      .sort((a, b) =>
        a.createdAt === b.createdAt
          ? a.id.localeCompare(b.id)
          : a.createdAt.localeCompare(b.createdAt),
      );
    const page = matching.slice(offset, offset + limit);
    res.json({
      message: 'success',
      data: page.map((u) => ({
        id: u.id,
        email: u.email,
        name: u.name,
        surname: u.surname,
        roles: u.roles,
        clientId: u.clientId,
        clientName: store.client(u.clientId as string)?.name,
        mfaEnabled: u.mfaEnabled,
        createdAt: u.createdAt,
        updatedAt: u.updatedAt,
      })),
      paging: { limit, offset, count: page.length, total: matching.length },
    });
  });

  router.get('/clients', (req, res) => {
    const key = apiKeyOf(res);
    const q = singleValuedQuery(req);
    const clientIds = clientScope(key, q.clientId);
    const clients = store.state.clients.filter((c) => clientIds.includes(c.id));
    res.json({
      message: 'success',
      data: clients.map((c) => ({ id: c.id, name: c.name, active: c.active })),
    });
  });

  return router;
}
