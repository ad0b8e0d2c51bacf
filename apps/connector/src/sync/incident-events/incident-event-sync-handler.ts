// Adapts handleIncidentEvent to the worker's handler shape: the queued data is parsed at this edge,
// and a job that is not an incident event job fails for good with the reason, never as a crash.
import { z } from 'zod';
import type { AccountContext } from '../../accounts';
import { ZIncidentEventJob } from '../../jobs';
import type { SyncOutcome } from '../../worker';
import { handleIncidentEvent } from './handle-incident-event';
import type { SyncDeps } from '../sync-deps';

export function incidentEventSyncHandler(deps: SyncDeps) {
  return async (ctx: AccountContext, data: unknown): Promise<SyncOutcome> => {
    const parsed = ZIncidentEventJob.safeParse(data);
    if (!parsed.success) {
      return {
        status: 'failed_permanently',
        reason: `malformed incident event job: ${z.prettifyError(parsed.error)}`,
      };
    }
    return handleIncidentEvent(deps, ctx, parsed.data);
  };
}
