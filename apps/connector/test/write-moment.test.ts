import { describe, expect, it } from 'vitest';
import { writeMoment } from '../src/sync/ticket-writes/write-moment';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const HOLD = 2_500;

describe('write moments', () => {
  it('never before the hold is over, and at most one hold after it', () => {
    for (let ms = 0; ms < 10_000; ms += 37) {
      const now = new Date(Date.UTC(2032, 0, 1) + ms);
      const moment = writeMoment(A, now, HOLD).getTime();
      expect(moment).toBeGreaterThanOrEqual(now.getTime() + HOLD);
      expect(moment).toBeLessThan(now.getTime() + 2 * HOLD);
    }
  });

  it("gathers one account's changes of one hold into one moment", () => {
    const start = writeMoment(A, new Date(Date.UTC(2032, 0, 1)), HOLD).getTime() - HOLD;
    // recorded at the first instant after a moment's window opened, and at its last
    const first = writeMoment(A, new Date(start + 1), HOLD);
    const last = writeMoment(A, new Date(start + HOLD), HOLD);
    expect(first).toEqual(last);
    expect(writeMoment(A, new Date(start + HOLD + 1), HOLD).getTime()).toBe(first.getTime() + HOLD);
  });

  it('spreads accounts over the hold, and a hold of 0 writes at once', () => {
    const now = new Date(Date.UTC(2032, 0, 1));
    expect(writeMoment(A, now, HOLD)).not.toEqual(writeMoment(B, now, HOLD));
    expect(writeMoment(A, now, 0)).toEqual(now);
  });
});
