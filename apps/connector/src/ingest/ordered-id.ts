// Time-ordered UUIDs (version 7, RFC 9562, with the 12-bit counter of its method 1): ids made
// later sort after ids made earlier, also within one millisecond. The inbox gives them to jobs in
// arrival order because pg-boss runs the jobs of one key by creation time and then by id, and
// every job of one transaction shares its creation time.
import { randomBytes } from 'node:crypto';

let lastMs = 0;
let counter = 0;

export function orderedUuid(now: number = Date.now()): string {
  let ms = Math.max(now, lastMs);
  if (ms === lastMs) {
    counter += 1;
    if (counter > 0xfff) {
      // 4096 ids in one millisecond: borrow the next one, as the RFC allows
      ms += 1;
      counter = 0;
    }
  } else {
    counter = 0;
  }
  lastMs = ms;
  const bytes = randomBytes(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
