// The analytics section's and its charts' English texts (part of the admin page's messages).

export const analyticsMessages = {
  analytics: {
    title: 'Takedown analytics',
    intro:
      "Incidents of the last weeks from the incident service, with this connector's own records of reports. Each chart's numbers can be downloaded as CSV.",
    client: 'Incident client',
    allClients: 'All clients of this account',
    reload: 'Reload analytics',
    loading: 'Loading analytics',
    noAnalytics: 'No analytics yet',
    loadFailed: 'The analytics could not load',
    saveKeyFirst: 'Save the incident API key above: analytics read the incident service.',
    since: 'Since',
    period: (weeks: number, total: number) => ` (${weeks} weeks): ${total} incidents.`,
    partial: 'Some numbers are incomplete',
    stackBy: 'Stack incidents per week by',
    byOutcome: 'Outcome',
    byType: 'Incident type',
    outcome: {
      taken_down: 'taken down',
      in_progress: 'in progress',
      waiting_on_customer: 'waiting on you',
      blocklisted: 'blocklisted',
      failed: 'takedown failed',
      closed: 'closed',
      report_failed: 'report not accepted',
    } as Record<string, string>,
    /** The connector's duration buckets (TAKEDOWN_BUCKETS) as the admin reads them. */
    bucket: {
      'under 1 day': 'under 1 day',
      '1 to 3 days': '1 to 3 days',
      '3 to 7 days': '3 to 7 days',
      'over 7 days': 'over 7 days',
    } as Record<string, string>,
    /** The parts of the answer the incident service may not have answered. */
    part: {
      credits: 'credits',
      incidents: 'incidents',
      'takedown attempts': 'takedown attempts',
      'waiting on the customer': 'waiting on the customer',
    } as Record<string, string>,
    weekOf: (week: string) => `week of ${week}`,
    hours: (h: number) => `${h} h`,
    days: (d: number) => `${d} d`,
    notApplicable: 'n/a',
    median: (duration: string) => `median ${duration}`,
    weeklyTitle: 'Incidents reported per week',
    weeklyDescription: (byType: boolean) =>
      `Incidents per week, stacked by ${byType ? 'incident type' : 'outcome'}.`,
    noIncidents: 'No incidents in these weeks.',
    timeTitle: (byHosting: boolean) =>
      `Time from report to takedown by ${byHosting ? 'hosting provider' : 'registrar'}`,
    timeDescription: (byHosting: boolean) =>
      `Taken-down incidents per ${byHosting ? 'hosting provider' : 'registrar'}, by how long the takedown took, with the median.`,
    noTakedown: 'No takedown in these weeks.',
    overallMedian: (duration: string, count: number) =>
      `Median over all takedowns: ${duration} (${count} takedowns)`,
    successTitle: 'Takedown success rate',
    successByAttempts: 'Resolved takedown attempts per client: succeeded and failed.',
    successByStatus:
      'Incidents per client by current status (takedown attempts could not be read).',
    succeeded: 'succeeded',
    failed: 'failed',
    rateOf: (rate: string, count: number) => `${rate} of ${count}`,
    blocklistTitle: 'Blocklist coverage',
    blocklistDescription:
      'Listings per blocklist authority: listed, and submitted (waiting for the partner).',
    listed: 'listed',
    submitted: 'submitted',
    noListing: 'No blocklist listing in these weeks.',
    coverage: (covered: number, incidents: number, rate: string) =>
      `${covered} of ${incidents} incidents read have a blocklist listing (${rate}).`,
    creditsTitle: 'Credits used',
    creditsDescription:
      'Takedowns started per client in these weeks (each approval spends a credit on clients that use them), with the credits left.',
    takedownsStarted: 'takedowns started',
    creditsNote: (started: number, left: string) => `${started} started, ${left} left`,
    creditsNotUsed: 'not used',
    creditsUnknown: 'unknown',
    waitingTitle: 'Waiting on you (action required)',
    waitingDescription: 'Open incidents where the service waits for this account, by days waiting.',
    daysWaiting: 'days waiting',
    nothingWaits: 'Nothing waits on you.',
    waitingTable: 'Incidents waiting on you',
    waitingColumns: ['Incident', 'Client', 'Waiting since', 'Days', 'Ticket'],
    noTicket: 'none',
  },
  charts: {
    noData: 'No data yet.',
    legendOf: (title: string) => `Legend of ${title}`,
    numbersOf: (title: string) => `Numbers of ${title.toLowerCase()}`,
    note: 'Note',
    downloadCsv: (title: string) => `Download the numbers of ${title.toLowerCase()} (CSV)`,
  },
};
