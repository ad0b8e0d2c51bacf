// What a bar chart draws, as plain data: its rows, the text summary screen readers hear, and where
// each bar segment sits. The chart components only draw what this works out.

export interface BarRow {
  label: string;
  /** One value per series, stacked in order. */
  values: number[];
  /** Text after the bar, e.g. "median 20 h"; the total when omitted. */
  note?: string;
}

/** A chart's named series and its rows. */
export interface ChartData {
  series: string[];
  rows: BarRow[];
}

interface PlacedSegment {
  series: string;
  value: number;
  x: number;
  width: number;
}

export interface PlacedRow {
  row: BarRow;
  y: number;
  segments: PlacedSegment[];
  /** Where the note (or the total) starts, right of the bar. */
  noteX: number;
  noteText: string;
}

const sumOf = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** "label: 3 series-a, 1 series-b (note); …", the numbers of every row in one sentence. */
export function textSummary(data: ChartData): string {
  return data.rows
    .map(
      (row) =>
        `${row.label}: ${data.series.map((name, i) => `${row.values[i] ?? 0} ${name}`).join(', ')}${row.note ? ` (${row.note})` : ''}`,
    )
    .join('; ');
}

/** A label cut to `max` characters, with an ellipsis when it was longer. */
export const shortLabel = (label: string, max = 28) =>
  label.length > max ? `${label.slice(0, max - 1)}…` : label;

/**
 * Each row's stacked segments from `left`, scaled so the largest row total spans `area`; rows
 * `rowHeight` apart from `top`.
 */
export function placeRows(
  data: ChartData,
  geometry: { left: number; area: number; rowHeight: number; top: number },
): PlacedRow[] {
  const max = Math.max(1, ...data.rows.map((row) => sumOf(row.values)));
  return data.rows.map((row, r) => {
    let x = geometry.left;
    const segments = row.values.map((value, i) => {
      const width = (value / max) * geometry.area;
      const segment = { series: data.series[i] ?? '', value, x, width };
      x += width;
      return segment;
    });
    return {
      row,
      y: r * geometry.rowHeight + geometry.top,
      segments,
      noteX: x,
      noteText: row.note ?? String(sumOf(row.values)),
    };
  });
}
