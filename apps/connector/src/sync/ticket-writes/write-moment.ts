// When a recorded change may be written: after its hold (a companion event, the rest of a burst
// may follow), at the account's next write moment. An account's moments are one hold apart, at an
// offset of its own, so the changes it records within one hold become ready together and go out in
// one pass (several tickets in one update_many) instead of a pass each; the offsets spread the
// accounts' passes over the hold instead of starting them all at once.
import { createHash } from 'node:crypto';

function offsetOf(accountId: string, holdMs: number): number {
  return createHash('sha256').update(accountId).digest().readUInt32BE(0) % holdMs;
}

/** The first of the account's write moments at least `holdMs` after `now`. */
export function writeMoment(accountId: string, now: Date, holdMs: number): Date {
  if (holdMs <= 0) return now;
  const offset = offsetOf(accountId, holdMs);
  const earliest = now.getTime() + holdMs - offset;
  return new Date(Math.ceil(earliest / holdMs) * holdMs + offset);
}
