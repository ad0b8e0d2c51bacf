// The charts' colours: Garden's palette, and colours that mean something (an outcome, a wait).

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

/** Success green, failure red (Garden green 700, red 600). */
export const OUTCOME_COLORS = ['#038153', '#cc3340'];

/** Listed green, submitted yellow (Garden green 700, yellow 700). */
export const LISTING_COLORS = ['#038153', '#c38f00'];

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
