// Hand-rolled SVG bar charts for the analytics section. A chart library (recharts pulls in d3 and
// roughly 100 kB gzipped) would more than double this page's bundle for what is only stacked
// horizontal bars; these are a few lines, styled with Garden's palette, and accessible: each chart
// is a figure with a caption, the SVG is an image named by a text summary, and the same numbers
// are in a table (and as CSV from the connector).
import type { ReactNode } from 'react';
import { Anchor } from '@zendeskgarden/react-buttons';
import { SM } from '@zendeskgarden/react-typography';
import { WideTable } from './ui';

/** Garden palette colours (600/700 shades), distinguishable and readable on white. */
export const PALETTE = [
  '#1f73b7', // blue 600
  '#038153', // green 700
  '#cc3340', // red 600
  '#ad5918', // orange 700
  '#6a27b8', // purple 600
  '#5c6970', // grey 600
  '#0f7a8a', // teal 700
  '#b8306a', // fuchsia 700
];

export interface BarRow {
  label: string;
  /** One value per series, stacked in order. */
  values: number[];
  /** Text after the bar, e.g. "median 20 h"; the total when omitted. */
  note?: string;
}

export interface ChartProps {
  id: string;
  title: string;
  /** One sentence of what the bars show (read by screen readers as the image's description). */
  description: string;
  series: string[];
  /** One colour per series when their colours mean something (a failure red, a longer wait darker); else the palette. */
  colors?: string[];
  rows: BarRow[];
  /** Where the numbers can be downloaded as CSV. */
  csvUrl: string;
  /** Extra content below the chart (e.g. a summary line). */
  children?: ReactNode;
  /** Column headings of the numbers table; defaults to the label and the series. */
  emptyText?: string;
}

/** Success green, failure red (Garden green 700, red 600). */
export const OUTCOME_COLORS = ['#038153', '#cc3340'];

/** From quick to slow: green, then yellow to red (Garden shades), the slowest the darkest. */
const DURATION_SCALE = ['#038153', '#5eae91', '#c38f00', '#ad5918', '#cc3340', '#8c232c'];

/** `count` colours spread over the scale, quickest first, so the longest wait is always the darkest. */
export function durationColors(count: number): string[] {
  if (count <= 1) return DURATION_SCALE.slice(0, count);
  const last = DURATION_SCALE.length - 1;
  return Array.from(
    { length: count },
    (_, i) => DURATION_SCALE[Math.round((i * last) / (count - 1))]!,
  );
}

function colorOf(props: ChartProps, index: number): string {
  return props.colors?.[index] ?? PALETTE[index % PALETTE.length]!;
}

const LABEL_WIDTH = 200;
const BAR_AREA = 360;
const NOTE_WIDTH = 120;
const ROW_HEIGHT = 26;

function textSummary(props: ChartProps): string {
  return props.rows
    .map(
      (row) =>
        `${row.label}: ${props.series.map((name, i) => `${row.values[i] ?? 0} ${name}`).join(', ')}${row.note ? ` (${row.note})` : ''}`,
    )
    .join('; ');
}

/** Stacked horizontal bars, one row per label. */
export function BarChart(props: ChartProps) {
  const max = Math.max(1, ...props.rows.map((row) => row.values.reduce((a, b) => a + b, 0)));
  const height = props.rows.length * ROW_HEIGHT + 8;
  const width = LABEL_WIDTH + BAR_AREA + NOTE_WIDTH;
  const titleId = `${props.id}-chart-title`;
  const descId = `${props.id}-chart-desc`;
  const empty = props.rows.length === 0;
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
      {empty ? (
        <SM data-testid={`chart-${props.id}-empty`}>{props.emptyText ?? 'No data yet.'}</SM>
      ) : (
        <>
          {props.series.length > 1 ? (
            <ul
              aria-label={`Legend of ${props.title}`}
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
          ) : null}
          <svg
            role="img"
            aria-labelledby={`${titleId} ${descId}`}
            viewBox={`0 0 ${width} ${height}`}
            width="100%"
            style={{ maxWidth: width, display: 'block' }}
          >
            <title id={titleId}>{props.title}</title>
            <desc id={descId}>{textSummary(props)}</desc>
            {props.rows.map((row, r) => {
              const y = r * ROW_HEIGHT + 4;
              let x = LABEL_WIDTH;
              const total = row.values.reduce((a, b) => a + b, 0);
              return (
                <g key={`${row.label}-${r}`} data-testid="bar-row">
                  <text
                    x={LABEL_WIDTH - 8}
                    y={y + 15}
                    textAnchor="end"
                    fontSize="12"
                    fill="#2f3941"
                  >
                    {row.label.length > 28 ? `${row.label.slice(0, 27)}…` : row.label}
                  </text>
                  {row.values.map((value, i) => {
                    const w = (value / max) * BAR_AREA;
                    const rect = (
                      <rect
                        key={props.series[i]}
                        x={x}
                        y={y}
                        width={w}
                        height={ROW_HEIGHT - 8}
                        fill={colorOf(props, i)}
                      >
                        <title>{`${row.label}, ${props.series[i]}: ${value}`}</title>
                      </rect>
                    );
                    x += w;
                    return rect;
                  })}
                  <text x={x + 6} y={y + 15} fontSize="12" fill="#2f3941">
                    {row.note ?? String(total)}
                  </text>
                </g>
              );
            })}
          </svg>
          <details style={{ marginTop: 8 }}>
            <summary>
              <SM tag="span">Numbers of {props.title.toLowerCase()}</SM>
            </summary>
            <WideTable label={`Numbers of ${props.title.toLowerCase()}`}>
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
                    {props.rows.some((row) => row.note) ? (
                      <th scope="col" style={cell}>
                        Note
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
                      {props.rows.some((x) => x.note) ? (
                        <td style={cell}>{row.note ?? ''}</td>
                      ) : null}
                    </tr>
                  ))}
                </tbody>
              </table>
            </WideTable>
          </details>
        </>
      )}
      {props.children}
      <div style={{ marginTop: 8 }}>
        <Anchor href={props.csvUrl} download data-testid={`csv-${props.id}`}>
          Download the numbers of {props.title.toLowerCase()} (CSV)
        </Anchor>
      </div>
    </figure>
  );
}

const cell = {
  border: '1px solid #d8dcde',
  padding: '2px 8px',
  fontSize: 12,
  textAlign: 'left' as const,
};
