// An analytics answer of two clients over twelve weeks, with a hostile incident subject.
import type { Analytics as TAnalytics } from '../src/api';

export const HOSTILE = '<img src=x onerror=alert(1)>evil[.]example';

export function analyticsOf(overrides: Partial<TAnalytics> = {}): TAnalytics {
  return {
    generatedAt: '2026-11-23T20:00:00.000Z',
    fromDate: '2026-09-07T00:00:00.000Z',
    weeks: 12,
    clientFilter: null,
    clients: [
      { id: 'cl_a', name: 'Parent' },
      { id: 'cl_b', name: 'Retail' },
    ],
    partial: [],
    reportsPerWeek: [
      { week: '2026-11-09', type: 'domain', outcome: 'taken_down', count: 3 },
      { week: '2026-11-09', type: 'email', outcome: 'in_progress', count: 1 },
      { week: '2026-11-16', type: 'domain', outcome: 'failed', count: 2 },
    ],
    timeToTakedown: {
      buckets: ['under 1 day', '1 to 3 days', '3 to 7 days', 'over 7 days'],
      overall: { name: 'All', count: 4, medianHours: 20, buckets: [2, 1, 1, 0] },
      byRegistrar: [
        { name: 'Fast Registrar', count: 3, medianHours: 9, buckets: [2, 1, 0, 0] },
        { name: 'Slow Registrar', count: 1, medianHours: 120, buckets: [0, 0, 1, 0] },
      ],
      byHosting: [{ name: 'CloudBox', count: 4, medianHours: 20, buckets: [2, 1, 1, 0] }],
    },
    successRate: {
      basis: 'attempts',
      rows: [
        { clientId: 'cl_a', clientName: 'Parent', succeeded: 3, failed: 1, rate: 0.75 },
        { clientId: 'cl_b', clientName: 'Retail', succeeded: 0, failed: 0, rate: null },
      ],
    },
    blocklistCoverage: {
      incidents: 6,
      covered: 4,
      rate: 4 / 6,
      rows: [{ authority: 'PhishTank', listed: 3, submitted: 1 }],
    },
    credits: {
      rows: [
        { clientId: 'cl_a', clientName: 'Parent', remainingCredits: 25, takedownsStarted: 5 },
        { clientId: 'cl_b', clientName: 'Retail', remainingCredits: null, takedownsStarted: 0 },
      ],
    },
    waitingOnCustomer: {
      rows: [
        {
          clientId: 'cl_a',
          incidentId: 'inc_1',
          subject: HOSTILE,
          since: '2026-11-10T00:00:00.000Z',
          ageDays: 13,
          ticketId: 42,
          ticketUrl: 'https://demo.zendesk.example/agent/tickets/42',
        },
      ],
    },
    ...overrides,
  };
}
