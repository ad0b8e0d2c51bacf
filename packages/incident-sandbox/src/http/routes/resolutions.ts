import { Router, type Request, type Response } from 'express';
import { cursorPage } from '../../domain/cursor-page';
import { filterIncidents } from '../../domain/incident-filter';
import { toTakedownAttempts } from '../../domain/incident-views';
import { matchesAttemptFilters, type TReinitiatedAfter } from '../../domain/resolutions-filter';
import { visibleAttempts } from '../../domain/takedown-attempts';
import { isStatus } from '../../domain/statuses';
import type { IncidentRecord } from '../../state/model';
import { actingClient, apiKeyOf, clientScope } from '../auth';
import type { SandboxContext } from '../context';
import { badRequest, HttpError } from '../errors';
import { parseBooleanParam, parseDateParam, parseIntegerParam, singleValuedQuery } from '../query';
import { validateResolutionsQuery } from '../request-validation';

const SEARCH_COMPATIBLE = new Set(['search', 'clientId', 'limit']);

/** GET /v1/incidents/resolutions and its alias /v1/incident/resolutions. */
export function resolutionsRoutes({ store }: SandboxContext): Router {
  const router = Router();

  const handler = (req: Request, res: Response) => {
    const key = apiKeyOf(res);
    if (!key.scopes.includes('incidents:read'))
      throw new HttpError(403, 'Forbidden. The API key lacks the incidents:read scope.');
    const q = singleValuedQuery(req);
    const clientIds = clientScope(key, q.clientId);
    const account = store.client(actingClient(key, q.clientId));
    if (!account?.resolutionsEnabled)
      throw new HttpError(403, 'Forbidden. Resolution history is not enabled for this account.');
    validateResolutionsQuery(q);

    const limit = parseIntegerParam('limit', q.limit, 1, 100) ?? 25;
    const attemptFilterNames = ['reinitiatedAfter', 'minTakedownAttempts'].filter(
      (n) => q[n] !== undefined,
    );
    if (q.search !== undefined) {
      const extra = attemptFilterNames[0] ?? Object.keys(q).find((n) => !SEARCH_COMPATIBLE.has(n));
      if (extra)
        throw badRequest(
          extra,
          'cannot be combined with search (search accepts only clientId and limit)',
        );
    }
    if (q.statusVerbose !== undefined && attemptFilterNames[0]) {
      throw badRequest(attemptFilterNames[0], 'cannot be combined with statusVerbose');
    }
    let reinitiatedAfter: TReinitiatedAfter | undefined;
    if (q.reinitiatedAfter !== undefined) {
      if (q.reinitiatedAfter !== 'success' && q.reinitiatedAfter !== 'resolved') {
        throw badRequest('reinitiatedAfter', 'must be success or resolved');
      }
      reinitiatedAfter = q.reinitiatedAfter;
    }
    const minTakedownAttempts = parseIntegerParam(
      'minTakedownAttempts',
      q.minTakedownAttempts,
      1,
      100000,
    );
    const includeTotal = parseBooleanParam('includeTotal', q.includeTotal) ?? false;
    const status = q.status ?? q.statusVerbose;
    if (status !== undefined && !isStatus(status))
      throw badRequest(
        q.status !== undefined ? 'status' : 'statusVerbose',
        `unknown status '${status}'`,
      );
    const fromDate = parseDateParam('fromDate', q.fromDate);
    const toDate = parseDateParam('toDate', q.toDate);

    const lagMs = store.state.settings.attemptVisibilityLagMs ?? 0;
    const attemptsOf = (i: IncidentRecord) =>
      visibleAttempts(i.takedownAttempts, store.nowMs(), lagMs);
    const view = (i: IncidentRecord) => toTakedownAttempts(i, attemptsOf(i));
    const failIfUnreadable = (items: IncidentRecord[]) => {
      const broken = items.find((i) => i.unreadable);
      if (broken)
        throw new HttpError(
          404,
          `Incident ${broken.id} on this page was not found; retry the request`,
        );
    };

    if (q.search !== undefined) {
      const needle = q.search.trim().toLowerCase();
      const matches = filterIncidents(store.state.incidents, { clientIds }).filter(
        (i) =>
          i.id === q.search ||
          i.ref === q.search ||
          [i.subject, i.url, i.domain].some(
            (v) => v !== undefined && needle !== '' && v.toLowerCase().includes(needle),
          ),
      );
      const items = matches.slice(0, limit);
      failIfUnreadable(items);
      res.json({
        message: 'success',
        data: items.map(view),
        paging: { limit, count: items.length },
      });
      return;
    }

    // Rule 4: filters select incidents before pagination, so limit and next count matches only.
    const filtered = filterIncidents(store.state.incidents, {
      clientIds,
      fromDate,
      toDate,
      status,
      incidentType: q.incidentType,
    }).filter((i) =>
      matchesAttemptFilters(attemptsOf(i), { reinitiatedAfter, minTakedownAttempts }),
    );
    let after: IncidentRecord | undefined;
    if (q.cursor !== undefined) {
      after = store.findIncident(q.cursor, clientIds);
      if (!after)
        throw badRequest('cursor', 'unknown cursor; pass paging.next of the previous response');
    }
    const page = cursorPage(filtered, { after, limit });
    failIfUnreadable(page.items);
    const last = page.items[page.items.length - 1];
    res.json({
      message: 'success',
      data: page.items.map(view),
      paging: {
        ...(last ? { cursor: last.id } : {}),
        // The end of resolutions is signalled by an absent next (the incident list uses null): readers handle both.
        ...(page.next ? { next: page.next } : {}),
        limit,
        count: page.items.length,
        ...(includeTotal ? { total: filtered.length } : {}),
      },
    });
  };

  router.get('/incidents/resolutions', handler);
  router.get('/incident/resolutions', handler);
  return router;
}
