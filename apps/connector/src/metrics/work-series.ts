// The series of the connector's work: jobs run, ticket changes written, expired rows deleted,
// installations read, and what was taken over from dead instances.
import { Counter, Histogram, type Registry } from 'prom-client';
import { PREFIX, type ConnectorMetrics } from './metric-types';

export function workSeries(
  registry: Registry,
): Pick<
  ConnectorMetrics,
  | 'jobOutcome'
  | 'jobDuration'
  | 'ticketWrite'
  | 'retentionDeleted'
  | 'installationChecked'
  | 'takeover'
> {
  const jobOutcomes = new Counter({
    name: `${PREFIX}jobs_total`,
    help: 'Jobs finished by queue and outcome (applied, skipped, failed_permanently, retried, deferred).',
    labelNames: ['queue', 'outcome'] as const,
    registers: [registry],
  });
  const jobDurations = new Histogram({
    name: `${PREFIX}job_duration_seconds`,
    help: 'Time of one run of a job, by queue and outcome (applied, skipped, failed_permanently, retried, deferred).',
    labelNames: ['queue', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [registry],
  });
  const eventToNote = new Histogram({
    name: `${PREFIX}event_to_note_seconds`,
    help: 'From the receipt of an incident event to its change (note, status) being written on the ticket.',
    buckets: [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800, 3600],
    registers: [registry],
  });
  const changesPerWrite = new Histogram({
    name: `${PREFIX}ticket_write_changes`,
    help: "Ticket changes coalesced into one write (the writer's coalescing).",
    buckets: [1, 2, 3, 5, 10, 20, 50, 100],
    registers: [registry],
  });
  const retentionDeletedRows = new Counter({
    name: `${PREFIX}retention_deleted_rows_total`,
    help: 'Expired rows retention deleted, by table.',
    labelNames: ['table'] as const,
    registers: [registry],
  });
  const takeovers = new Counter({
    name: `${PREFIX}takeovers_total`,
    help: 'What this instance took over from dead instances, by kind (job: a job left running; ticket_writer: an account writer lease; changes_in_flight: the ticket changes a dead instance was sending).',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  const installationChecks = new Counter({
    name: `${PREFIX}installation_checks_total`,
    help: 'Reads of an account’s app installations, by what they found (uninstalled disconnects it).',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  return {
    jobOutcome: (queue, outcome) => jobOutcomes.inc({ queue, outcome }),
    jobDuration: (queue, outcome, seconds) => jobDurations.observe({ queue, outcome }, seconds),
    ticketWrite(changes, receivedAt, writtenAt) {
      changesPerWrite.observe(changes);
      for (const at of receivedAt) {
        if (at) eventToNote.observe(Math.max(0, (writtenAt.getTime() - at.getTime()) / 1000));
      }
    },
    retentionDeleted: (table, rows) => retentionDeletedRows.inc({ table }, rows),
    installationChecked: (result) => installationChecks.inc({ result }),
    takeover: (kind) => takeovers.inc({ kind }),
  };
}
