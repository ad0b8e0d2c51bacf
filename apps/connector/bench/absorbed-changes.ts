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
 * Rows of the connector's database. PostgreSQL is read while the connector runs; the embedded
 * database only once its connector has stopped (`dir` is the one given to connectorDatabase).
 */
export async function connectorRows<TRow>(
  database: ConnectorDatabase,
  dir: string,
  sql: string,
  values: unknown[] = [],
): Promise<TRow[]> {
  if (database.query) return database.query<TRow>(sql, values);
  const db = await openDatabase({ databaseUrl: null, pgliteDir: path.join(dir, 'pglite') });
  try {
    return await db.prisma.$queryRawUnsafe<TRow[]>(sql, ...values);
  } finally {
    await db.close();
  }
}

/** The events settled without a note (read as connectorRows reads). */
export async function absorbedEventRefs(
  database: ConnectorDatabase,
  dir: string,
): Promise<Set<string>> {
  const rows = await connectorRows<{ eventRef: string }>(database, dir, ABSORBED);
  return new Set(rows.map((row) => row.eventRef));
}
