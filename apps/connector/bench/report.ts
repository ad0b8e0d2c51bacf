// The human-readable table printed before the benchmark's JSON line.
import type { TServerStats } from './ipc-messages';
import type { LoadFigures } from './load-figures';
import type { IngestCount } from './verify-ingest';

export interface TargetFigures extends LoadFigures {
  server: TServerStats;
  ingest?: IngestCount;
  signedLate: number;
}

export interface Goal {
  value: number | null;
  goal: string;
  met: boolean;
}

export function formatTable(
  targets: Record<string, TargetFigures>,
  ratios: Record<string, number | null>,
  goals: Record<string, Goal>,
): string {
  const header = [
    'target',
    'ack/s',
    'p50 ms',
    'p99 ms',
    'non-2xx',
    'errors',
    'srv CPU%',
    'srv ELU',
    'tx',
    'rows/tx',
    'tx busy%',
    'lossless',
  ];
  const rows = Object.entries(targets).map(([name, t]) => [
    name,
    t.acknowledgedPerSecond.toFixed(0),
    String(t.p50Ms),
    String(t.p99Ms),
    String(t.non2xx),
    String(t.errors),
    t.server.cpuPercent.toFixed(0),
    t.server.eventLoopUtilization.toFixed(2),
    t.server.transactions === undefined ? '-' : String(t.server.transactions),
    t.server.transactions
      ? ((t.server.acceptedWrites ?? 0) / t.server.transactions).toFixed(1)
      : '-',
    t.server.transactionBusyPercent === undefined
      ? '-'
      : t.server.transactionBusyPercent.toFixed(0),
    t.ingest ? (t.ingest.lossless ? 'yes' : 'NO') : '-',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
  return [
    line(header),
    ...rows.map(line),
    '',
    ...Object.entries(targets).flatMap(([name, t]) => {
      const s = t.server.meanStatementMs;
      if (!s || t.server.meanTransactionMs === undefined) return [];
      return [
        `${name}: inbox transaction ${t.server.meanTransactionMs} ms mean = begin ${s.begin} + ` +
          `receipts insert ${s.receipts} + pg-boss insert ${s.jobs} + commit ${s.commit} ` +
          `(+ other ${s.other}, rest between statements); max ${t.server.maxInFlight ?? '-'} writes waiting`,
        ...(t.ingest
          ? [
              `${name}: ${t.ingest.acknowledged} acknowledged events (warm-up included) -> ` +
                `${t.ingest.acknowledgedReceipts} receipts, ${t.ingest.acknowledgedJobs} jobs; ` +
                `${t.ingest.receiptsTotal} receipts and ${t.ingest.jobsTotal} jobs in all ` +
                `(the rest were cut off by the end of a run before their answer arrived)`,
            ]
          : []),
      ];
    }),
    ...Object.entries(ratios).map(
      ([name, value]) =>
        `ratio ${name}/baseline (ack/s): ${value === null ? 'n/a' : value.toFixed(2)}`,
    ),
    ...Object.entries(goals).map(
      ([name, g]) => `goal ${name} ${g.goal}: ${g.value ?? 'n/a'} -> ${g.met ? 'met' : 'NOT met'}`,
    ),
  ].join('\n');
}
