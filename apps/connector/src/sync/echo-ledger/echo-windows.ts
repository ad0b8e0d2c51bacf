// How long the echo ledger's entries count (contract: own-note text is kept "a day or two").

/** Entries are compared only while this recent, then deleted (src/retention). */
export const ECHO_RETENTION_MS = 2 * 24 * 60 * 60 * 1000;

/** An own call not settled after this belongs to a caller that stopped: events no longer wait. */
export const OWN_CALL_IN_FLIGHT_MS = 60_000;

/**
 * How far the service's clock (it dates history entries) may be from ours (we date the call): an
 * entry dated this much before the call was sent or after it settled may still be its echo.
 */
export const ECHO_CLOCK_SKEW_MS = 60_000;
