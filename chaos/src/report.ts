// The chaos report: what the runs measured, as JSON and as the short Markdown table of FIGURES.md,
// section 4. Rows the soak (section 1) will fill say "not run" until it exists.
interface FuzzFigures {
  backend: string;
  seed: number;
  requests: number;
  durationMs: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  countsBefore: { receipts: number; jobs: number };
  countsAfter: { receipts: number; jobs: number };
  memory: {
    rssBeforeMiB: number;
    rssAfterMiB: number;
    heapBeforeMiB: number;
    heapAfterMiB: number;
    peakRssMiB: number;
    toleranceHeapMiB: number;
    toleranceRssMiB: number;
  };
  byKind: Record<string, { sent: number; statuses: Record<string, number> }>;
  adminCovered: boolean;
  healthAfter: number;
  secretsInLogs: number;
  unhandledErrors: number;
  failures: string[];
}

interface SoakFigures {
  backend: string;
  sizes: {
    tickets: number;
    advances: number;
    duplicateRate: number;
    restarts: number;
    faultRate?: number;
    paceMs?: number;
    ticketWebhooks?: number;
    reports?: number;
    accounts?: number;
  };
  /** The Zendesk side: trigger deliveries and their check against the incident sandbox. */
  ticketWebhooks?: {
    webhooksSent: number;
    webhooksDuplicated: number;
    webhooksFailed: number;
    webhooksRefusedDuringPostgresRestart?: number;
    reports: number;
    replies: number;
    takedownRequests: number;
    lost: number;
    duplicated: number;
    takedownsAppliedTwice?: number;
    problems: string[];
  };
  /** Restarts of the soak's private PostgreSQL cluster (postgres backend only). */
  postgresRestarts?: number;
  /** Peak RSS of the connector child processes (the killed ones included), when it ran as one. */
  connectorPeakRssMiB?: number;
  eventsSent: number;
  deliveriesFailed: number;
  eventsExpectingNotes: number;
  applied: number;
  duplicatesReplayed: number;
  duplicatesSuppressed: number;
  faultsInjected: Record<string, number>;
  faultRates?: {
    configured: { zendesk5xx: number; zendeskDrop: number; incident5xx: number };
    zendeskRequests: number;
    zendesk5xxSeen: number;
    zendeskDropSeen: number;
  };
  restarts: number;
  kills?: number;
  lost: number;
  duplicated: number;
  statusMismatches: number;
  deadLetters: {
    syncFailures: number;
    failedJobs: number;
    injectedPermanentFailures?: { invalidReports: number; closedTickets: number; sigkills: number };
    explained?: { invalidReport: number; closedTicket: number; killedWhileSending: number };
    unexpected?: string[];
    missing?: string[];
    doubled?: number;
  };
  p99ReceiptToAppliedMs: number;
  p50ReceiptToAppliedMs?: number;
  p90ReceiptToAppliedMs?: number;
  peakRssMiB: number;
  durationMs: number;
}

export interface SecurityFinding {
  property: string;
  backend: string;
  test: string;
  ok: boolean;
  detail: string;
}

export interface ChaosReport {
  generatedAt: string;
  profile: 'ci' | 'full';
  seed: number;
  fuzzCountPerBackend: number;
  backends: string[];
  durationMs: number;
  steps: { name: string; ok: boolean; durationMs: number }[];
  tests: { name: string; status: string; durationMs: number }[];
  parts: Record<string, unknown>;
}

const NOT_RUN = 'soak not run';

function fuzzParts(report: ChaosReport): FuzzFigures[] {
  return Object.entries(report.parts)
    .filter(([name]) => name.startsWith('fuzz-'))
    .map(([, part]) => part as FuzzFigures);
}

function securityFindings(report: ChaosReport): SecurityFinding[] {
  return Object.entries(report.parts)
    .filter(([name]) => name.startsWith('security-'))
    .flatMap(([, part]) => part as SecurityFinding[]);
}

function sumBy(figures: FuzzFigures, select: (kind: string) => string | null) {
  const totals = new Map<string, number>();
  for (const [kind, tally] of Object.entries(figures.byKind)) {
    const key = select(kind);
    if (key) totals.set(key, (totals.get(key) ?? 0) + tally.sent);
  }
  return totals;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ⏎ ');

export function renderMarkdown(report: ChaosReport): string {
  const fuzz = fuzzParts(report);
  const lines: string[] = [];
  lines.push('# incident-desk chaos report', '');
  lines.push(
    `${report.generatedAt} · profile \`${report.profile}\` · fast-check seed **${report.seed}** · ` +
      `${report.fuzzCountPerBackend} fuzz requests per backend · backends ${report.backends.join(', ')} · ` +
      `${(report.durationMs / 1000).toFixed(0)} s`,
    '',
  );
  const perBackend = (render: (f: FuzzFigures) => string) =>
    fuzz.length === 0 ? 'fuzz not run' : fuzz.map((f) => `${f.backend}: ${render(f)}`).join('; ');
  const soak = Object.entries(report.parts)
    .filter(([name]) => name.startsWith('soak-'))
    .map(([, part]) => part as SoakFigures);
  const perSoak = (render: (f: SoakFigures) => string) =>
    soak.length === 0 ? NOT_RUN : soak.map((f) => `${f.backend}: ${render(f)}`).join('; ');
  const tw = (f: SoakFigures, render: (t: NonNullable<SoakFigures['ticketWebhooks']>) => string) =>
    f.ticketWebhooks ? render(f.ticketWebhooks) : 'no ticket webhooks';
  const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
  const kinds = (f: SoakFigures) => {
    const counts =
      Object.entries(f.faultsInjected)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ') || 'none';
    const r = f.faultRates;
    return r
      ? `${counts} (of ${r.zendeskRequests} Zendesk requests ${percent(r.zendesk5xxSeen)} answered 5xx and ${percent(r.zendeskDropSeen)} dropped; rates set: Zendesk 5xx ${percent(r.configured.zendesk5xx)}, drops ${percent(r.configured.zendeskDrop)}, incident service 5xx ${percent(r.configured.incident5xx)})`
      : counts;
  };
  const rows: [string, string][] = [
    [
      'Events sent',
      `soak, incident events delivered: ${perSoak((f) => `${f.eventsSent} (${f.eventsExpectingNotes} expecting a note)`)}; soak, ticket webhooks delivered by Zendesk triggers: ${perSoak((f) => tw(f, (t) => `${t.webhooksSent} (${t.reports} reports, ${t.replies} public replies, ${t.takedownRequests} takedown tags)`))}; fuzz, hostile requests: ${perBackend((f) => String(f.requests))}`,
    ],
    [
      'Applied',
      perSoak(
        (f) =>
          `${f.applied} of ${f.eventsExpectingNotes} event notes; ticket side: ${tw(f, (t) => `${t.reports + t.replies + t.takedownRequests - t.lost} of ${t.reports + t.replies + t.takedownRequests} reports, replies and requests`)}`,
      ),
    ],
    [
      'Duplicates suppressed',
      `soak, replayed deliveries answered "duplicate": ${perSoak((f) => `${f.duplicatesSuppressed} of ${f.duplicatesReplayed}; Zendesk duplicate deliveries absorbed: ${tw(f, (t) => String(t.webhooksDuplicated))}`)}; fuzz replays answered "duplicate": ${perBackend(
        (f) =>
          String(
            Object.entries(f.byKind)
              .filter(([k]) => k.includes('/replay_'))
              .reduce((n, [, t]) => n + (t.statuses['200'] ?? 0), 0),
          ),
      )}`,
    ],
    [
      'Faults injected by kind',
      `soak: ${perSoak(kinds)}; fuzz, hostile requests by target: ${perBackend((f) =>
        [...sumBy(f, (k) => k.split('/')[0] ?? null)].map(([k, n]) => `${k} ${n}`).join(', '),
      )}`,
    ],
    [
      'Restarts',
      perSoak(
        (f) =>
          `${f.restarts} graceful, ${f.kills ?? 0} SIGKILL, ${f.postgresRestarts === undefined ? 'no PostgreSQL restart' : `${f.postgresRestarts} PostgreSQL restart (private cluster)`}`,
      ),
    ],
    [
      'Lost (must be 0)',
      perSoak(
        (f) =>
          `${f.lost} notes missing, ${f.deliveriesFailed} deliveries never accepted; ticket side: ${tw(f, (t) => `${t.lost} replies, reports or requests not applied, ${t.webhooksFailed} webhooks never accepted${t.webhooksRefusedDuringPostgresRestart ? ` (and ${t.webhooksRefusedDuringPostgresRestart} refused with 500/503 without Retry-After during the PostgreSQL restart, which Zendesk does not retry: a product defect; caught up by later webhooks)` : ''}`)}`,
      ),
    ],
    [
      'Duplicated (must be 0)',
      `soak, notes written twice: ${perSoak((f) => `${f.duplicated}; ticket side, comments forwarded twice, threats reported twice or requests applied twice: ${tw(f, (t) => `${t.duplicated}${t.takedownsAppliedTwice ? ` (${t.takedownsAppliedTwice} takedown requests applied twice: a product defect, see chaos/README.md)` : ''}`)}`)}; fuzz, jobs or receipts added: ${perBackend(
        (f) =>
          String(
            f.countsAfter.jobs -
              f.countsBefore.jobs +
              (f.countsAfter.receipts - f.countsBefore.receipts),
          ),
      )}`,
    ],
    [
      'Status field equal to the newest status',
      perSoak((f) => `${f.statusMismatches} tickets differ`),
    ],
    [
      'Dead letters (only for injected permanent failures)',
      perSoak((f) => {
        const d = f.deadLetters;
        const injected = d.injectedPermanentFailures;
        const explained = injected
          ? `: ${d.explained?.invalidReport ?? 0} for the ${injected.invalidReports} reports with an invalid Threat, ${d.explained?.closedTicket ?? 0} for events of the ${injected.closedTickets} tickets closed mid-run, ${d.explained?.killedWhileSending ?? 0} for action requests a SIGKILL cut short, ${d.unexpected?.length ?? 0} unexplained, ${d.missing?.length ?? 0} injected failures without one`
          : '';
        return `${d.syncFailures} sync failures${explained}; ${d.failedJobs} failed jobs`;
      }),
    ],
    [
      'p99 end-to-end latency under faults',
      `soak, receipt to applied, queue wait included: ${perSoak((f) => `${f.p99ReceiptToAppliedMs} ms${f.p50ReceiptToAppliedMs !== undefined ? ` (p50 ${f.p50ReceiptToAppliedMs} ms, p90 ${f.p90ReceiptToAppliedMs} ms)` : ''}${f.sizes.paceMs ? ` (paced ${f.sizes.paceMs} ms per move)` : ' (unpaced: a backlog builds)'}`)}; fuzz, answer to a hostile request: ${perBackend((f) => `${f.p99Ms} ms`)}`,
    ],
    [
      'Peak RSS',
      `soak driver (sandboxes; the connector too unless it ran as a killed child): ${perSoak((f) => `${f.peakRssMiB} MiB${f.connectorPeakRssMiB === undefined ? '' : `, connector child processes ${f.connectorPeakRssMiB} MiB`}`)}; fuzz (connector and sandboxes in one process): ${perBackend((f) => `${f.memory.peakRssMiB} MiB`)}`,
    ],
  ];
  lines.push('| Figure | Value |', '| --- | --- |');
  for (const [name, value] of rows) lines.push(`| ${name} | ${cell(value)} |`);
  lines.push('');
  for (const f of soak) {
    lines.push(
      `Soak on ${f.backend}: ${f.sizes.tickets} tickets in ${f.sizes.accounts ?? 2} accounts (one with sub-clients), ${f.sizes.advances} status moves, ` +
        `${Math.round(f.sizes.duplicateRate * 100)}% of delivered events replayed out of order, ${f.sizes.restarts} restarts, ` +
        `${f.sizes.reports ?? 0} threats reported from Zendesk and ${f.sizes.ticketWebhooks ?? 0} Zendesk-side changes, ` +
        `${(f.durationMs / 1000).toFixed(0)} s.`,
    );
  }
  if (soak.length > 0) lines.push('');

  if (fuzz.length > 0) {
    lines.push('## Bad input (section 2)', '');
    lines.push(
      '| Backend | Requests | Req/s | p50 / p99 | Non-4xx | Stored or enqueued | Heap after GC | RSS after GC | Peak RSS | Admin page | Health after |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    );
    for (const f of fuzz) {
      const non4xx = Object.entries(f.byKind).reduce(
        (n, [kind, t]) =>
          n +
          Object.entries(t.statuses)
            .filter(
              ([s]) =>
                (Number(s) < 400 || Number(s) > 499) &&
                !(kind.includes('/replay_') && s === '200') &&
                !(kind.endsWith('/oversized') && s === '0'),
            )
            .reduce((m, [, c]) => m + c, 0),
        0,
      );
      lines.push(
        `| ${f.backend} | ${f.requests} | ${f.requestsPerSecond} | ${f.p50Ms} / ${f.p99Ms} ms | ${non4xx} | ` +
          `${f.countsAfter.receipts - f.countsBefore.receipts} receipts, ${f.countsAfter.jobs - f.countsBefore.jobs} jobs | ` +
          `${f.memory.heapBeforeMiB} → ${f.memory.heapAfterMiB} MiB (±${f.memory.toleranceHeapMiB}) | ` +
          `${f.memory.rssBeforeMiB} → ${f.memory.rssAfterMiB} MiB (±${f.memory.toleranceRssMiB}) | ${f.memory.peakRssMiB} MiB | ` +
          `${f.adminCovered ? 'covered' : 'absent, not covered'} | ${f.healthAfter} |`,
      );
    }
    lines.push('');
    const first = fuzz[0]!;
    lines.push(
      `Answers by attack (${first.backend}; status 0 = the server reset the connection while an oversized body was still being sent, after refusing it):`,
      '',
    );
    lines.push('| Target / attack | Sent | Statuses |', '| --- | --- | --- |');
    for (const [kind, tally] of Object.entries(first.byKind)) {
      lines.push(
        `| ${kind} | ${tally.sent} | ${Object.entries(tally.statuses)
          .map(([s, n]) => `${s}×${n}`)
          .join(' ')} |`,
      );
    }
    lines.push('');
  }

  const findings = securityFindings(report);
  if (findings.length > 0) {
    lines.push('## Security properties (section 3)', '');
    lines.push('| Property | Backend | Result | Detail |', '| --- | --- | --- | --- |');
    for (const f of findings) {
      lines.push(
        `| ${cell(f.property)} | ${f.backend} | ${f.ok ? 'holds' : '**FAILS**'} | ${cell(f.detail)} |`,
      );
    }
    lines.push('');
  }

  lines.push('## Steps', '', '| Step | Result | Time |', '| --- | --- | --- |');
  for (const step of report.steps) {
    lines.push(
      `| ${cell(step.name)} | ${step.ok ? 'passed' : '**failed**'} | ${(step.durationMs / 1000).toFixed(1)} s |`,
    );
  }
  lines.push('');
  const notPassed = report.tests.filter((t) => t.status !== 'passed');
  lines.push(
    `${report.tests.length} chaos tests, ${report.tests.length - notPassed.length} passed` +
      (notPassed.length > 0
        ? `; not passed: ${notPassed.map((t) => `${t.name} (${t.status})`).join('; ')}`
        : '') +
      '.',
    '',
  );
  return `${lines.join('\n')}\n`;
}
