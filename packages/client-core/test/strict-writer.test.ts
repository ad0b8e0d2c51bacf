import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseOutgoing } from '../src';

class Refused extends Error {}

const ZNote = z.strictObject({ body: z.string().min(1), public: z.boolean().default(false) });

describe('parseOutgoing (the strict writer)', () => {
  it('answers the parsed value, defaults applied', () => {
    expect(parseOutgoing(ZNote, { body: 'hi' }, () => new Refused())).toEqual({
      body: 'hi',
      public: false,
    });
  });

  it("throws the client's own error, built from zod's, for a value its schema refuses", () => {
    let seen: z.ZodError | undefined;
    const refuse = (error: z.ZodError) => {
      seen = error;
      return new Refused(error.issues.map((issue) => issue.path.join('.')).join(', '));
    };
    expect(() => parseOutgoing(ZNote, { body: '', extra: 1 }, refuse)).toThrow(Refused);
    expect(seen?.issues.map((issue) => issue.code).sort()).toEqual([
      'too_small',
      'unrecognized_keys',
    ]);
  });
});
