// Seed timestamps are fixed, not read from the clock, so every seeded run is identical.
const EPOCH = Date.parse('2026-09-01T08:00:00.000Z');

/** The seed's moment this many hours after its epoch. */
export const at = (hours: number) => new Date(EPOCH + hours * 3_600_000).toISOString();
