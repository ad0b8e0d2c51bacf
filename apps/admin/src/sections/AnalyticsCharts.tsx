// The analytics charts, drawn from the shapes analytics-shape.ts makes of the answer: the period,
// parts the service did not answer, then one chart per question with its CSV link.
import { Field, Select } from '@zendeskgarden/react-forms';
import { Alert } from '@zendeskgarden/react-notifications';
import { SM } from '@zendeskgarden/react-typography';
import type { analyticsCsvUrl, Analytics as TAnalytics } from '../api';
import {
  blocklistSeries,
  clientNameOf,
  creditSeries,
  durationSeries,
  formatHours,
  formatPercent,
  successSeries,
  totalIncidents,
  waitingSeries,
  weeklySeries,
  type StackBy,
} from '../analytics-shape';
import { durationColors, LISTING_COLORS, OUTCOME_COLORS } from '../chart-colors';
import { BarChart } from '../charts';
import { useTexts } from '../i18n/i18n';
import { WaitingTable } from './WaitingTable';

type CsvUrl = (chart: Parameters<typeof analyticsCsvUrl>[0]) => string;
interface ChartsProps {
  data: TAnalytics;
  csv: CsvUrl;
}

function PartialNotice({ data }: { data: TAnalytics }) {
  const t = useTexts().analytics;
  if (data.partial.length === 0) return null;
  return (
    <Alert
      type="warning"
      role="status"
      style={{ marginBottom: 16 }}
      data-testid="analytics-partial"
    >
      <Alert.Title>{t.partial}</Alert.Title>
      <ul style={{ margin: 0, paddingLeft: 16 }}>
        {data.partial.map((p, i) => (
          <li key={i}>
            <SM>
              {p.clientId ? `${clientNameOf(data, p.clientId)}: ` : ''}
              {t.part[p.part] ?? p.part}: {p.message}
            </SM>
          </li>
        ))}
      </ul>
    </Alert>
  );
}

function WeeklyChart(props: ChartsProps & { by: StackBy; setBy: (by: StackBy) => void }) {
  const t = useTexts().analytics;
  return (
    <>
      <Field style={{ marginBottom: 8, maxWidth: 260 }}>
        <Field.Label>{t.stackBy}</Field.Label>
        <Select
          name="analyticsStackBy"
          value={props.by}
          onChange={(event) => props.setBy(event.target.value === 'type' ? 'type' : 'outcome')}
        >
          <option value="outcome">{t.byOutcome}</option>
          <option value="type">{t.byType}</option>
        </Select>
      </Field>
      <BarChart
        id="reports-per-week"
        title={t.weeklyTitle}
        description={t.weeklyDescription(props.by === 'type')}
        {...weeklySeries(props.data, props.by, t)}
        csvUrl={props.csv('reports-per-week')}
        emptyText={t.noIncidents}
      />
    </>
  );
}

function TakedownTimeCharts({ data, csv }: ChartsProps) {
  const t = useTexts().analytics;
  const { timeToTakedown } = data;
  const charts = [
    ['time-by-registrar', false, timeToTakedown.byRegistrar],
    ['time-by-hosting', true, timeToTakedown.byHosting],
  ] as const;
  return (
    <>
      {charts.map(([id, byHosting, groups]) => (
        <BarChart
          key={id}
          id={id}
          title={t.timeTitle(byHosting)}
          description={t.timeDescription(byHosting)}
          {...durationSeries(data, groups, t)}
          colors={durationColors(timeToTakedown.buckets.length)}
          csvUrl={csv('time-to-takedown')}
          emptyText={t.noTakedown}
        >
          {!byHosting && timeToTakedown.overall ? (
            <SM>
              {t.overallMedian(
                formatHours(timeToTakedown.overall.medianHours, t),
                timeToTakedown.overall.count,
              )}
            </SM>
          ) : null}
        </BarChart>
      ))}
    </>
  );
}

function OutcomeCharts({ data, csv }: ChartsProps) {
  const t = useTexts().analytics;
  const coverage = data.blocklistCoverage;
  return (
    <>
      <BarChart
        id="success-rate"
        title={t.successTitle}
        description={
          data.successRate.basis === 'attempts' ? t.successByAttempts : t.successByStatus
        }
        {...successSeries(data, t)}
        colors={OUTCOME_COLORS}
        csvUrl={csv('success-rate')}
      />
      <BarChart
        id="blocklist-coverage"
        title={t.blocklistTitle}
        description={t.blocklistDescription}
        {...blocklistSeries(data, t)}
        colors={LISTING_COLORS}
        csvUrl={csv('blocklist-coverage')}
        emptyText={t.noListing}
      >
        <SM data-testid="blocklist-coverage-summary">
          {t.coverage(coverage.covered, coverage.incidents, formatPercent(coverage.rate, t))}
        </SM>
      </BarChart>
    </>
  );
}

function CustomerCharts({ data, csv }: ChartsProps) {
  const t = useTexts().analytics;
  return (
    <>
      <BarChart
        id="credits"
        title={t.creditsTitle}
        description={t.creditsDescription}
        {...creditSeries(data, t)}
        csvUrl={csv('credits')}
      />
      <BarChart
        id="waiting-on-customer"
        title={t.waitingTitle}
        description={t.waitingDescription}
        {...waitingSeries(data, t)}
        csvUrl={csv('waiting-on-customer')}
        emptyText={t.nothingWaits}
      >
        {data.waitingOnCustomer.rows.length > 0 ? <WaitingTable data={data} /> : null}
      </BarChart>
    </>
  );
}

export function AnalyticsCharts(
  props: ChartsProps & { by: StackBy; setBy: (by: StackBy) => void },
) {
  const t = useTexts().analytics;
  const { data } = props;
  return (
    <div data-testid="analytics-charts">
      <SM style={{ marginBottom: 12 }}>
        {t.since} <time dateTime={data.fromDate}>{data.fromDate.slice(0, 10)}</time>
        {t.period(data.weeks, totalIncidents(data))}
      </SM>
      <PartialNotice data={data} />
      <WeeklyChart {...props} />
      <TakedownTimeCharts {...props} />
      <OutcomeCharts {...props} />
      <CustomerCharts {...props} />
    </div>
  );
}
