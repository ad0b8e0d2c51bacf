// The threat extractor reads whole ticket conversations an attacker writes, so it runs
// in time linear in their length whatever their shape: 2x input -> about 2x time (under 3x per
// doubling over the span), as test/linear-time.test.ts asserts for the defanging scanners.
import { describe, expect, it } from 'vitest';
import { extractThreats } from '../src';
import { repeated, settledGrowth } from './growth';
import { BENIGN_PROSE, HOSTILE_SHAPES } from './hostile-shapes';

const SIZES = [8_192, 16_384, 32_768, 65_536];
const MAX_RATIO = 3;

// shapes aimed at the extractor's own paths: phone numbers, defanged tokens, emails, URLs
const SHAPES: Record<string, (size: number) => string> = {
  ...HOSTILE_SHAPES,
  '+1 ': repeated('+1 '),
  '+1': repeated('+1'),
  '+1 (2) ': repeated('+1 (2) '),
  '[.]': repeated('a[.]'),
  '(dot) ': repeated('a (dot) '),
  'a+a@': repeated('a+a@'),
  'x@b.cc+': repeated('x@b.cc+'),
  'http://a.b/': repeated('http://a.b/'),
  'hxxp[:]//': repeated('hxxp[:]//'),
  'hosts ': repeated('evil.example '),
  prose: BENIGN_PROSE,
};

const extract = (text: string) =>
  extractThreats({
    subject: null,
    comments: [{ id: 1, body: text, public: true, author: 'end-user' }],
  });

describe('extractThreats runs in linear time', () => {
  it.each(Object.keys(SHAPES))('on %s', (shape) => {
    const growth = settledGrowth(SHAPES[shape]!, extract, { sizes: SIZES, maxRatio: MAX_RATIO });
    expect(growth.perDoubling, JSON.stringify(growth)).toBeLessThan(MAX_RATIO);
  });
});
