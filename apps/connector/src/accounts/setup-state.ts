// Where setup stands for one account, as the admin page shows it. Written by whoever queues setup
// and by the setup job; the job itself lives in pg-boss, so nothing here depends on memory.
import type { SetupOutcomeCodes, TSetupOutcome } from '@incident-desk/admin-contract';
import type { TDatabase } from '@incident-desk/db';
import type { StepReport } from '../setup';

export type SetupState =
  | 'never_run'
  | 'queued'
  | 'running'
  | 'succeeded'
  | 'failed'
  | 'needs_configuration'
  | 'needs_authorization';

/** `message` is the English of the codes (reports stored before the codes have only it). */
export interface SetupReport extends Partial<SetupOutcomeCodes> {
  ok: boolean;
  message: string;
  steps: StepReport[];
  /** The token's scope once the run was over (narrowed to the steady state when it worked). */
  scopeAfter: string | null;
}

/** A run's report that ran no step: why it stopped before, or how it ended. */
export const shortSetupReport = (
  outcome: TSetupOutcome,
  message: string,
  scopeAfter: string | null,
): SetupReport => ({ ok: false, outcome, message, steps: [], scopeAfter });

export interface SetupStatus {
  state: SetupState;
  requestedAt: Date | null;
  finishedAt: Date | null;
  report: SetupReport | null;
}

const STATES = new Set<SetupState>([
  'never_run',
  'queued',
  'running',
  'succeeded',
  'failed',
  'needs_configuration',
  'needs_authorization',
]);

export async function markSetup(
  db: TDatabase,
  accountId: string,
  state: 'queued' | 'running',
  now: Date,
): Promise<void> {
  const data =
    state === 'queued' ? { setupState: state, setupRequestedAt: now } : { setupState: state };
  await db.prisma.accountConfiguration.upsert({
    where: { accountId },
    create: { accountId, ...data },
    update: data,
  });
}

export async function finishSetup(
  db: TDatabase,
  accountId: string,
  state: Exclude<SetupState, 'never_run' | 'queued' | 'running'>,
  report: SetupReport,
  now: Date,
): Promise<void> {
  const data = {
    setupState: state,
    setupFinishedAt: now,
    setupReport: JSON.parse(JSON.stringify(report)) as object,
  };
  await db.prisma.accountConfiguration.upsert({
    where: { accountId },
    create: { accountId, ...data },
    update: data,
  });
}

export async function readSetupStatus(db: TDatabase, accountId: string): Promise<SetupStatus> {
  const row = await db.prisma.accountConfiguration.findUnique({ where: { accountId } });
  const state = STATES.has(row?.setupState as SetupState)
    ? (row!.setupState as SetupState)
    : 'never_run';
  return {
    state,
    requestedAt: row?.setupRequestedAt ?? null,
    finishedAt: row?.setupFinishedAt ?? null,
    report: (row?.setupReport as SetupReport | null | undefined) ?? null,
  };
}
