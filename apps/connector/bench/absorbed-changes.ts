// A takedown update that found nothing the ticket had not been told adds no note: the connector
// keeps its change without an entry, settled with no ticket update when nothing else waited
// (sync/incident-events/apply-linked-event.ts). Such an event is accounted for by that row, as the
// soak accounts for it, not counted lost for want of an audit naming it.
import path from 'node:path';
import { openDatabase } from '@incident-desk/db';
import type { ConnectorDatabase } from '../test/support/connector-process';

const ABSORBED = `SELECT event_ref AS "eventRef" FROM pending_ticket_change
  WHERE event_name = 'incident.takedown_updated' AND (entry IS NULL OR entry = 'null'::jsonb)
    AND written_at IS NOT NULL AND write_ref IS NULL`;

/**
 * The events settled without a note. PostgreSQL is read while the connector runs; the embedded
 * database only once its connector has stopped (`dir` is the one given to connectorDatabase).
 */
export async function absorbedEventRefs(
  database: ConnectorDatabase,
  dir: string,
): Promise<Set<string>> {
  if (database.query) {
    const rows = await database.query<{ eventRef: string }>(ABSORBED);
    return new Set(rows.map((row) => row.eventRef));
  }
  const db = await openDatabase({ databaseUrl: null, pgliteDir: path.join(dir, 'pglite') });
  try {
    const rows = await db.prisma.$queryRawUnsafe<{ eventRef: string }[]>(ABSORBED);
    return new Set(rows.map((row) => row.eventRef));
  } finally {
    await db.close();
  }
}
