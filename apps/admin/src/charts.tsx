// Hand-rolled SVG bar charts for the analytics section. A chart library (recharts pulls in d3 and
// roughly 100 kB gzipped) would more than double this page's bundle for what is only stacked
// horizontal bars; these are a few lines, styled with Garden's palette, and accessible: each chart
// is a figure with a caption, the SVG is an image named by a text summary, and the same numbers
// are in a table (and as CSV from the connector). What to draw comes from chart-model.ts.
import type { ReactNode } from 'react';
import { Anchor } from '@zendeskgarden/react-buttons';
import { SM } from '@zendeskgarden/react-typography';
import { placeRows, shortLabel, textSummary, type ChartData, type PlacedRow } from './chart-model';
import { PALETTE } from './chart-colors';
import { useTexts } from './i18n/i18n';
import { WideTable } from './ui';

export interface ChartProps extends ChartData {
  id: string;
  title: string;
  /** One sentence of what the bars show (read by screen readers as the image's description). */
  description: string;
  /** One colour per series when their colours mean something (a failure red, a longer wait darker); else the palette. */
  colors?: string[];
  /** Where the numbers can be downloaded as CSV. */
  csvUrl: string;
  /** Extra content below the chart (e.g. a summary line). */
  children?: ReactNode;
  /** What an empty chart says instead of bars. */
  emptyText?: string;
}

function colorOf(props: ChartProps, index: number): string {
  return props.colors?.[index] ?? PALETTE[index % PALETTE.length]!;
}

const LABEL_WIDTH = 200;
const BAR_AREA = 360;
const NOTE_WIDTH = 120;
const ROW_HEIGHT = 26;
const TEXT = '#2f3941';

export const cell = {
  border: '1px solid #d8dcde',
  padding: '2px 8px',
  fontSize: 12,
  textAlign: 'left' as const,
};

function Legend(props: ChartProps) {
  const t = useTexts().charts;
  if (props.series.length <= 1) return null;
  return (
    <ul
      aria-label={t.legendOf(props.title)}
      style={{
        display: 'flex',
        flexWrap: 'wrap',
        gap: 12,
        listStyle: 'none',
        padding: 0,
        margin: '0 0 8px',
      }}
    >
      {props.series.map((name, i) => (
        <li key={name} style={{ display: 'flex', alignItems: 'center', gap: 4 }}>
          <span
            aria-hidden="true"
            style={{
              width: 12,
              height: 12,
              background: colorOf(props, i),
              display: 'inline-block',
            }}
          />
          <SM>{name}</SM>
        </li>
      ))}
    </ul>
  );
}

function Bar({ placed, chart }: { placed: PlacedRow; chart: ChartProps }) {
  const { row, y } = placed;
  return (
    <g data-testid="bar-row">
      <text x={LABEL_WIDTH - 8} y={y + 15} textAnchor="end" fontSize="12" fill={TEXT}>
        {shortLabel(row.label)}
      </text>
      {placed.segments.map((segment, i) => (
        <rect
          key={segment.series}
          x={segment.x}
          y={y}
          width={segment.width}
          height={ROW_HEIGHT - 8}
          fill={colorOf(chart, i)}
        >
          <title>{`${row.label}, ${segment.series}: ${segment.value}`}</title>
        </rect>
      ))}
      <text x={placed.noteX + 6} y={y + 15} fontSize="12" fill={TEXT}>
        {placed.noteText}
      </text>
    </g>
  );
}

function Bars(props: ChartProps) {
  const height = props.rows.length * ROW_HEIGHT + 8;
  const width = LABEL_WIDTH + BAR_AREA + NOTE_WIDTH;
  const titleId = `${props.id}-chart-title`;
  const descId = `${props.id}-chart-desc`;
  const placed = placeRows(props, {
    left: LABEL_WIDTH,
    area: BAR_AREA,
    rowHeight: ROW_HEIGHT,
    top: 4,
  });
  return (
    <svg
      role="img"
      aria-labelledby={`${titleId} ${descId}`}
      viewBox={`0 0 ${width} ${height}`}
      width="100%"
      style={{ maxWidth: width, display: 'block' }}
    >
      <title id={titleId}>{props.title}</title>
      <desc id={descId}>{textSummary(props)}</desc>
      {placed.map((row, r) => (
        <Bar key={`${row.row.label}-${r}`} placed={row} chart={props} />
      ))}
    </svg>
  );
}

function NumbersTable(props: ChartProps) {
  const t = useTexts().charts;
  const noted = props.rows.some((row) => row.note);
  return (
    <details style={{ marginTop: 8 }}>
      <summary>
        <SM tag="span">{t.numbersOf(props.title)}</SM>
      </summary>
      <WideTable label={t.numbersOf(props.title)}>
        <table style={{ borderCollapse: 'collapse', marginTop: 4 }}>
          <thead>
            <tr>
              <th scope="col" style={cell}>
                &nbsp;
              </th>
              {props.series.map((name) => (
                <th key={name} scope="col" style={cell}>
                  {name}
                </th>
              ))}
              {noted ? (
                <th scope="col" style={cell}>
                  {t.note}
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {props.rows.map((row, r) => (
              <tr key={`${row.label}-${r}`}>
                <th scope="row" style={cell}>
                  {row.label}
                </th>
                {props.series.map((name, i) => (
                  <td key={name} style={cell}>
                    {row.values[i] ?? 0}
                  </td>
                ))}
                {noted ? <td style={cell}>{row.note ?? ''}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      </WideTable>
    </details>
  );
}

/** Stacked horizontal bars, one row per label, with a legend, the numbers and a CSV link. */
export function BarChart(props: ChartProps) {
  const t = useTexts().charts;
  return (
    <figure
      id={props.id}
      data-testid={`chart-${props.id}`}
      style={{ margin: '0 0 24px', border: '1px solid #d8dcde', borderRadius: 4, padding: 12 }}
    >
      <figcaption>
        <SM isBold tag="h3" style={{ margin: '0 0 4px' }}>
          {props.title}
        </SM>
        <SM style={{ color: '#5c6970', margin: '0 0 8px' }}>{props.description}</SM>
      </figcaption>
      {props.rows.length === 0 ? (
        <SM data-testid={`chart-${props.id}-empty`}>{props.emptyText ?? t.noData}</SM>
      ) : (
        <>
          <Legend {...props} />
          <Bars {...props} />
          <NumbersTable {...props} />
        </>
      )}
      {props.children}
      <div style={{ marginTop: 8 }}>
        <Anchor href={props.csvUrl} download data-testid={`csv-${props.id}`}>
          {t.downloadCsv(props.title)}
        </Anchor>
      </div>
    </figure>
  );
}
