/** Zendesk gives currentUser.timeZone as an object ({ianaName, ...}) or a name; only a valid IANA zone is used. */
export function ianaTimeZone(value: unknown): string | undefined {
  const candidate =
    typeof value === 'string'
      ? value
      : value &&
          typeof value === 'object' &&
          typeof (value as { ianaName?: unknown }).ianaName === 'string'
        ? (value as { ianaName: string }).ianaName
        : undefined;
  if (!candidate) return undefined;
  try {
    new Intl.DateTimeFormat('en', { timeZone: candidate });
    return candidate;
  } catch {
    return undefined;
  }
}

export function createDateFormatters(locale: string, timeZone: string | undefined) {
  const safeLocale = (() => {
    try {
      return Intl.DateTimeFormat.supportedLocalesOf([locale]).length ? locale : 'en';
    } catch {
      return 'en';
    }
  })();
  const dateTime = new Intl.DateTimeFormat(safeLocale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  });
  // Date-only values (YYYY-MM-DD, as in WHOIS snapshots) are calendar dates: formatting them in UTC keeps the day.
  const dateOnly = new Intl.DateTimeFormat(safeLocale, { dateStyle: 'medium', timeZone: 'UTC' });
  return {
    formatDateTime(iso: string | null | undefined): string | null {
      if (!iso) return null;
      const date = new Date(iso);
      if (Number.isNaN(date.getTime())) return null;
      return /^\d{4}-\d{2}-\d{2}$/.test(iso) ? dateOnly.format(date) : dateTime.format(date);
    },
    /**
     * A calendar date (WHOIS, certificate): the date as written, never moved by a time zone, even
     * when it comes as a timestamp such as 2026-10-30T00:00:00Z.
     */
    formatDate(value: string | null | undefined): string | null {
      const day = /^(\d{4}-\d{2}-\d{2})/.exec(value ?? '')?.[1];
      if (!day) return null;
      const date = new Date(`${day}T00:00:00Z`);
      return Number.isNaN(date.getTime()) ? null : dateOnly.format(date);
    },
  };
}
