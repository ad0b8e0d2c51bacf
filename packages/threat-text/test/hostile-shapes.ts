import { repeated } from './growth';

/**
 * The shapes of text the outside review used against the old regular expressions, and
 * a few more aimed at this package's scanners, with benign prose as the baseline.
 */
export const HOSTILE_SHAPES: Record<string, (size: number) => string> = {
  'a.': repeated('a.'),
  'a-': repeated('a-'),
  'ab.+!': repeated('ab.', '!'),
  'a+': repeated('a+'),
  'long token': repeated('a'),
  'a@': repeated('a@'),
  'a://': repeated('a://'),
  '1.': repeated('1.'),
  'пр.': repeated('пр.'),
  'a。': repeated('a。'),
  'a.b ': repeated('a.b '),
  'xn--': repeated('xn--a.'),
};

export const BENIGN_PROSE = repeated(
  'The analyst contacted the registrar about the reported page and is waiting for an answer. ',
);
