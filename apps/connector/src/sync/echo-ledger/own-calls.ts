// A call the connector makes to an incident on an agent's behalf (a forwarded comment, an action
// request, a takedown approval) comes back as incident.history_created in the service's own words
// ("Comment: ok thx", "Takedown requested by client"). The ledger entry is written just before
// the call and settled once the service has answered: the call itself is the only request to the
// service on the agent's path. Recognising the echo is left to the event's job
// (recognise-incident-echo.ts). While the entry is unsettled, the incident's history events wait
// (own-call-in-flight.ts): the call may still fail, and then its entry is dropped.
// Best effort: when the database fails the call still goes out, and only its result or error
// comes back (never the database's, which would read as the service's answer); its echo may then
// show as a note.
import type { TDatabase } from '@incident-desk/db';
import { logger } from '../../log';
import { normalizeText } from '../../notes';
import { incidentFailureKind } from '../service-failure';

type Prisma = TDatabase['prisma'];
type LedgerWriter = Pick<Prisma, 'echoLedgerEntry'>;

export interface OwnCall {
  accountId: string;
  incidentId: string;
  /** A comment is sent verbatim: its text is recorded too. */
  comment?: string;
}

/** Records a call about to be made, unsettled: the incident's history events wait for it. */
export function startOwnCall(prisma: LedgerWriter, call: OwnCall, now = new Date()) {
  return prisma.echoLedgerEntry.create({
    data: {
      accountId: call.accountId,
      kind: call.comment === undefined ? 'incident_action' : 'incident_comment',
      target: call.incidentId,
      ...(call.comment === undefined ? {} : { text: normalizeText(call.comment) }),
      sentAt: now,
    },
    select: { id: true },
  });
}

/**
 * The call is over: answered, or failed in a way that may have reached the incident (its echo may
 * come), the entry is settled; certainly not acted on, it is dropped.
 */
export async function settleOwnCall(
  db: TDatabase,
  id: string,
  error?: unknown,
  now = new Date(),
): Promise<void> {
  if (error !== undefined && incidentFailureKind(error) !== 'unknown') {
    await db.prisma.echoLedgerEntry.deleteMany({ where: { id } });
    return;
  }
  await db.prisma.echoLedgerEntry.updateMany({
    where: { id, settledAt: null },
    data: { settledAt: now },
  });
}

/** Makes one call to the incident, recorded in the ledger around it. */
export async function callAsOwn<T>(
  db: TDatabase,
  call: OwnCall,
  send: () => Promise<T>,
): Promise<T> {
  const entry = await startOwnCall(db.prisma, call).catch((error: unknown) => {
    logger.warn('own call not recorded; its echo may show as a note', { error });
    return null;
  });
  const settle = (error?: unknown) =>
    entry === null
      ? Promise.resolve()
      : settleOwnCall(db, entry.id, error).catch((failure: unknown) => {
          // left unsettled, it holds events back for OWN_CALL_IN_FLIGHT_MS only
          logger.warn('own call not settled; its echo may show as a note', { error: failure });
        });
  let result: T;
  try {
    result = await send();
  } catch (error) {
    await settle(error);
    throw error;
  }
  await settle();
  return result;
}
