// The statements the connector sent to its database (@incident-desk/db counts them, pg-boss's
// included): a counter read from the database's own count at each scrape, so counting costs a
// statement nothing but an integer increment.
import { Counter, type Registry } from 'prom-client';
import { PREFIX, type ConnectorMetrics } from './metric-types';

export function databaseSeries(
  registry: Registry,
): Pick<ConnectorMetrics, 'watchDatabaseStatements'> {
  let read: (() => number) | undefined;
  let counted = 0;
  const statements = new Counter({
    name: `${PREFIX}database_statements_total`,
    help: "Statements sent to the database, pg-boss's included (a PGlite transaction's BEGIN and COMMIT too; a script sent in one call counts once).",
    registers: [registry],
    collect() {
      const sent = read?.() ?? 0;
      if (sent > counted) {
        this.inc(sent - counted);
        counted = sent;
      }
    },
  });
  void statements;
  return {
    watchDatabaseStatements(reader) {
      read = reader;
    },
  };
}
