// Every scan of incoming text runs in linear time. Besides defanging (its own test in
// packages/threat-text), the connector scans analyst messages and Zendesk comments when it compares
// them (normalizeText) and the Threat field when it classifies it for a report
// (reportTargetOf: zod's email and IPv4 patterns, the phone and digits patterns, URL parsing).
// A complexity-class assertion (2x input -> about 2x time), not a wall-clock bound.
import { describe, expect, it } from 'vitest';
import { repeated, settledGrowth } from '@incident-desk/threat-text/test/growth';
import { BENIGN_PROSE, HOSTILE_SHAPES } from '@incident-desk/threat-text/test/hostile-shapes';
import { normalizeText } from '../src/notes/normalize';
import { reportTargetOf } from '../src/sync/ticket-events/threat-report-target';

const SIZES = [8_192, 16_384, 32_768, 65_536];
const MAX_RATIO = 3;

const SHAPES: Record<string, (size: number) => string> = {
  ...HOSTILE_SHAPES,
  prose: BENIGN_PROSE,
  spaces: repeated(' ', 'x'),
  'space-tab-newline': repeated(' \t\n'),
  'a@a.': repeated('a@a.', '!'),
  'email local part': repeated('a', '@'),
  'email domain': (size) => `a@${repeated('a-a.')(size - 3)}1`,
  '+digits': repeated('1', 'x'),
  'nbsp runs': repeated('\u00a0 \u202f'),
};

const SCANS: Record<string, (text: string) => unknown> = {
  normalizeText,
  reportTargetOf,
};

describe('the connector scans incoming text in linear time', () => {
  for (const [name, scan] of Object.entries(SCANS)) {
    it.each(Object.keys(SHAPES))(`${name} on %s`, (shape) => {
      const growth = settledGrowth(SHAPES[shape]!, scan, {
        sizes: SIZES,
        maxRatio: MAX_RATIO,
        minSampleMs: 5,
      });
      expect(growth.perDoubling, JSON.stringify(growth)).toBeLessThan(MAX_RATIO);
    });
  }
});
