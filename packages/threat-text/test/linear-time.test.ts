// Defanging attacker-controlled text runs in time linear in its length, whatever its
// shape. A complexity-class assertion (2x input -> about 2x time, under 3x per doubling over the
// span), not a wall-clock bound: the old regular expressions took 4x per doubling on `a.`, `a-`,
// `a+` and a long token.
import { describe, expect, it } from 'vitest';
import { defang, defangLinksIn, escapeHtml, plainText } from '../src';
import { settledGrowth } from './growth';
import { BENIGN_PROSE, HOSTILE_SHAPES } from './hostile-shapes';

const SIZES = [8_192, 16_384, 32_768, 65_536];
const MAX_RATIO = 3;
const SHAPES: Record<string, (size: number) => string> = { ...HOSTILE_SHAPES, prose: BENIGN_PROSE };

function expectLinear(makeInput: (size: number) => string, work: (text: string) => string) {
  const growth = settledGrowth(makeInput, work, { sizes: SIZES, maxRatio: MAX_RATIO });
  expect(growth.perDoubling, JSON.stringify(growth)).toBeLessThan(MAX_RATIO);
}

describe('threat text runs in linear time', () => {
  it.each(Object.keys(SHAPES))('defangLinksIn on %s', (shape) => {
    expectLinear(SHAPES[shape]!, defangLinksIn);
  });

  it.each(Object.keys(SHAPES))('defang on %s', (shape) => {
    expectLinear(SHAPES[shape]!, defang);
  });

  // single character classes: linear by construction; checked on the shapes that broke the others
  it.each(['a.', 'long token', 'prose'])('escapeHtml and plainText on %s', (shape) => {
    expectLinear(SHAPES[shape]!, escapeHtml);
    expectLinear(SHAPES[shape]!, plainText);
  });
});
