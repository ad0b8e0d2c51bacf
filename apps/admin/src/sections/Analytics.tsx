// Takedown analytics of the account, for all its incident clients or one: reports per week by type
// or outcome, time to takedown by registrar and hosting provider, success rate, blocklist
// coverage, credits, and incidents waiting on the customer. Loaded on its own, so a slow incident
// service never holds up the rest of the page; a part the service did not answer is named.
import { useCallback, useEffect, useState } from 'react';
import { Anchor, Button } from '@zendeskgarden/react-buttons';
import { Field, Select } from '@zendeskgarden/react-forms';
import { Dots } from '@zendeskgarden/react-loaders';
import { Alert } from '@zendeskgarden/react-notifications';
import { SM } from '@zendeskgarden/react-typography';
import { analyticsCsvUrl, api, ApiError, type Analytics as TAnalytics } from '../api';
import { BarChart, durationColors, OUTCOME_COLORS, type BarRow } from '../charts';
import { Section, WideTable } from '../ui';

const OUTCOME_LABELS: Record<string, string> = {
  taken_down: 'taken down',
  in_progress: 'in progress',
  waiting_on_customer: 'waiting on you',
  blocklisted: 'blocklisted',
  failed: 'takedown failed',
  closed: 'closed',
  report_failed: 'report not accepted',
};

type State =
  | { kind: 'loading' }
  | { kind: 'error'; message: string; notConnected: boolean }
  | { kind: 'ready'; data: TAnalytics };

const hours = (h: number) => (h < 48 ? `${h} h` : `${Math.round((h / 24) * 10) / 10} d`);
const percent = (rate: number | null) => (rate === null ? 'n/a' : `${Math.round(rate * 100)}%`);

/** A one-series chart's series and rows: each row read as its label, value and note. */
const oneSeries = <T,>(
  name: string,
  rows: readonly T[],
  read: (row: T) => [string, number, string],
) => ({
  series: [name],
  rows: rows.map((row): BarRow => {
    const [label, value, note] = read(row);
    return { label, values: [value], note };
  }),
});

/** Rows per week (oldest first), stacked by outcome or by incident type. */
export function weeklyRows(data: TAnalytics, by: 'outcome' | 'type') {
  const series = [
    ...new Set(
      data.reportsPerWeek
        .map((r) => (by === 'outcome' ? r.outcome : r.type))
        .sort((a, b) =>
          by === 'outcome'
            ? Object.keys(OUTCOME_LABELS).indexOf(a) - Object.keys(OUTCOME_LABELS).indexOf(b)
            : a.localeCompare(b),
        ),
    ),
  ];
  const weeks = [...new Set(data.reportsPerWeek.map((r) => r.week))].sort();
  const rows: BarRow[] = weeks.map((week) => ({
    label: `week of ${week}`,
    values: series.map((s) =>
      data.reportsPerWeek
        .filter((r) => r.week === week && (by === 'outcome' ? r.outcome : r.type) === s)
        .reduce((sum, r) => sum + r.count, 0),
    ),
  }));
  return {
    series: by === 'outcome' ? series.map((s) => OUTCOME_LABELS[s] ?? s) : series,
    rows,
  };
}

export function Analytics() {
  const [client, setClient] = useState<string>('');
  const [by, setBy] = useState<'outcome' | 'type'>('outcome');
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [clients, setClients] = useState<{ id: string; name: string | null }[]>([]);

  const load = useCallback(async (clientId: string) => {
    setState({ kind: 'loading' });
    try {
      const data = await api.analytics(clientId || null);
      if (!clientId) setClients(data.clients);
      setState({ kind: 'ready', data });
    } catch (error) {
      setState({
        kind: 'error',
        message: error instanceof Error ? error.message : String(error),
        notConnected: error instanceof ApiError && error.code === 'not_configured',
      });
    }
  }, []);
  useEffect(() => {
    void load(client);
  }, [client, load]);

  const csv = (chart: Parameters<typeof analyticsCsvUrl>[0]) =>
    analyticsCsvUrl(chart, client || null);

  return (
    <Section id="analytics" title="Takedown analytics">
      <SM style={{ marginBottom: 12 }}>
        Incidents of the last weeks from the incident service, with this connector&apos;s own
        records of reports. Each chart&apos;s numbers can be downloaded as CSV.
      </SM>
      <div
        style={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: 16,
          alignItems: 'flex-end',
          marginBottom: 16,
        }}
      >
        <Field style={{ minWidth: 260 }}>
          <Field.Label>Incident client</Field.Label>
          <Select
            name="analyticsClient"
            value={client}
            onChange={(event) => setClient(event.target.value)}
          >
            <option value="">All clients of this account</option>
            {clients.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name ? `${c.name} (${c.id})` : c.id}
              </option>
            ))}
          </Select>
        </Field>
        <Button size="small" onClick={() => void load(client)} disabled={state.kind === 'loading'}>
          Reload analytics
        </Button>
      </div>
      {state.kind === 'loading' ? <Dots size={24} aria-label="Loading analytics" /> : null}
      {state.kind === 'error' ? (
        <Alert type={state.notConnected ? 'info' : 'error'} role="alert">
          <Alert.Title>
            {state.notConnected ? 'No analytics yet' : 'The analytics could not load'}
          </Alert.Title>
          <Alert.Paragraph>
            {state.notConnected
              ? 'Save the incident API key above: analytics read the incident service.'
              : state.message}
          </Alert.Paragraph>
        </Alert>
      ) : null}
      {state.kind === 'ready' ? <Charts data={state.data} by={by} setBy={setBy} csv={csv} /> : null}
    </Section>
  );
}

function Charts(props: {
  data: TAnalytics;
  by: 'outcome' | 'type';
  setBy: (by: 'outcome' | 'type') => void;
  csv: (chart: Parameters<typeof analyticsCsvUrl>[0]) => string;
}) {
  const { data, csv } = props;
  const weekly = weeklyRows(data, props.by);
  const total = data.reportsPerWeek.reduce((sum, r) => sum + r.count, 0);
  const durations = (groups: TAnalytics['timeToTakedown']['byRegistrar']): BarRow[] =>
    groups.map((g) => ({
      label: g.name,
      values: g.buckets,
      note: `median ${hours(g.medianHours)}`,
    }));
  const clientName = (id: string) => data.clients.find((c) => c.id === id)?.name ?? id;
  const credits = (value: TAnalytics['credits']['rows'][number]['remainingCredits']) =>
    value === null ? 'not used' : value === 'unknown' ? 'unknown' : String(value);
  return (
    <div data-testid="analytics-charts">
      <SM style={{ marginBottom: 12 }}>
        Since <time dateTime={data.fromDate}>{data.fromDate.slice(0, 10)}</time> ({data.weeks}{' '}
        weeks): {total} incidents.
      </SM>
      {data.partial.length > 0 ? (
        <Alert
          type="warning"
          role="status"
          style={{ marginBottom: 16 }}
          data-testid="analytics-partial"
        >
          <Alert.Title>Some numbers are incomplete</Alert.Title>
          <ul style={{ margin: 0, paddingLeft: 16 }}>
            {data.partial.map((p, i) => (
              <li key={i}>
                <SM>
                  {p.clientId ? `${clientName(p.clientId)}: ` : ''}
                  {p.part}: {p.message}
                </SM>
              </li>
            ))}
          </ul>
        </Alert>
      ) : null}

      <Field style={{ marginBottom: 8, maxWidth: 260 }}>
        <Field.Label>Stack incidents per week by</Field.Label>
        <Select
          name="analyticsStackBy"
          value={props.by}
          onChange={(event) => props.setBy(event.target.value === 'type' ? 'type' : 'outcome')}
        >
          <option value="outcome">Outcome</option>
          <option value="type">Incident type</option>
        </Select>
      </Field>
      <BarChart
        id="reports-per-week"
        title="Incidents reported per week"
        description={`Incidents per week, stacked by ${props.by === 'type' ? 'incident type' : 'outcome'}.`}
        series={weekly.series}
        rows={weekly.rows}
        csvUrl={csv('reports-per-week')}
        emptyText="No incidents in these weeks."
      />
      {(
        [
          ['time-by-registrar', 'registrar', data.timeToTakedown.byRegistrar],
          ['time-by-hosting', 'hosting provider', data.timeToTakedown.byHosting],
        ] as const
      ).map(([id, by, groups]) => (
        <BarChart
          key={id}
          id={id}
          title={`Time from report to takedown by ${by}`}
          description={`Taken-down incidents per ${by}, by how long the takedown took, with the median.`}
          series={data.timeToTakedown.buckets}
          colors={durationColors(data.timeToTakedown.buckets.length)}
          rows={durations(groups)}
          csvUrl={csv('time-to-takedown')}
          emptyText="No takedown in these weeks."
        >
          {by === 'registrar' && data.timeToTakedown.overall ? (
            <SM>
              Median over all takedowns: {hours(data.timeToTakedown.overall.medianHours)} (
              {data.timeToTakedown.overall.count} takedowns)
            </SM>
          ) : null}
        </BarChart>
      ))}
      <BarChart
        id="success-rate"
        title="Takedown success rate"
        description={
          data.successRate.basis === 'attempts'
            ? 'Resolved takedown attempts per client: succeeded and failed.'
            : 'Incidents per client by current status (takedown attempts could not be read).'
        }
        series={['succeeded', 'failed']}
        colors={OUTCOME_COLORS}
        rows={data.successRate.rows.map((r) => ({
          label: r.clientName ?? r.clientId,
          values: [r.succeeded, r.failed],
          note: `${percent(r.rate)} of ${r.succeeded + r.failed}`,
        }))}
        csvUrl={csv('success-rate')}
      />
      <BarChart
        id="blocklist-coverage"
        title="Blocklist coverage"
        description="Listings per blocklist authority: listed, and submitted (waiting for the partner)."
        series={['listed', 'submitted']}
        colors={['#038153', '#c38f00']}
        rows={data.blocklistCoverage.rows.map((r) => ({
          label: r.authority,
          values: [r.listed, r.submitted],
        }))}
        csvUrl={csv('blocklist-coverage')}
        emptyText="No blocklist listing in these weeks."
      >
        <SM data-testid="blocklist-coverage-summary">
          {data.blocklistCoverage.covered} of {data.blocklistCoverage.incidents} incidents read have
          a blocklist listing ({percent(data.blocklistCoverage.rate)}).
        </SM>
      </BarChart>
      <BarChart
        id="credits"
        title="Credits used"
        description="Takedowns started per client in these weeks (each approval spends a credit on clients that use them), with the credits left."
        {...oneSeries('takedowns started', data.credits.rows, (r) => [
          r.clientName ?? r.clientId,
          r.takedownsStarted,
          `${r.takedownsStarted} started, ${credits(r.remainingCredits)} left`,
        ])}
        csvUrl={csv('credits')}
      />
      <BarChart
        id="waiting-on-customer"
        title="Waiting on you (action required)"
        description="Open incidents where the service waits for this account, by days waiting."
        {...oneSeries('days waiting', data.waitingOnCustomer.rows, (r) => [
          r.subject,
          r.ageDays,
          `${r.ageDays} d`,
        ])}
        csvUrl={csv('waiting-on-customer')}
        emptyText="Nothing waits on you."
      >
        {data.waitingOnCustomer.rows.length > 0 ? (
          <WideTable label="Incidents waiting on you">
            <table style={{ borderCollapse: 'collapse', marginTop: 8 }} data-testid="waiting-table">
              <caption style={{ textAlign: 'left' }}>
                <SM tag="span" isBold>
                  Incidents waiting on you
                </SM>
              </caption>
              <thead>
                <tr>
                  {['Incident', 'Client', 'Waiting since', 'Days', 'Ticket'].map((h) => (
                    <th key={h} scope="col" style={cell}>
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {data.waitingOnCustomer.rows.map((r) => (
                  <tr key={r.incidentId}>
                    <td style={cell}>{r.subject}</td>
                    <td style={cell}>{clientName(r.clientId)}</td>
                    <td style={cell}>
                      <time dateTime={r.since}>{new Date(r.since).toLocaleString()}</time>
                    </td>
                    <td style={cell}>{r.ageDays}</td>
                    <td style={cell}>
                      {r.ticketId === null ? (
                        'none'
                      ) : r.ticketUrl ? (
                        <Anchor href={r.ticketUrl} isExternal target="_blank" rel="noreferrer">
                          #{r.ticketId}
                        </Anchor>
                      ) : (
                        `#${r.ticketId}`
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </WideTable>
        ) : null}
      </BarChart>
    </div>
  );
}

const cell = {
  border: '1px solid #d8dcde',
  padding: '2px 8px',
  fontSize: 12,
  textAlign: 'left' as const,
};
