// GET /admin/api/analytics: an account's takedown analytics (apps/connector/src/admin/analytics.ts
// computes it, apps/admin/src/sections/Analytics.tsx draws it).
export const OUTCOMES = [
  'taken_down',
  'in_progress',
  'waiting_on_customer',
  'blocklisted',
  'failed',
  'closed',
  'report_failed',
] as const;
export type TOutcome = (typeof OUTCOMES)[number];

export const TAKEDOWN_BUCKETS = ['under 1 day', '1 to 3 days', '3 to 7 days', 'over 7 days'];

export interface DurationGroup {
  name: string;
  count: number;
  medianHours: number;
  /** Counts per TAKEDOWN_BUCKETS entry, in order. */
  buckets: number[];
}

export interface TakedownAnalytics {
  generatedAt: string;
  fromDate: string;
  weeks: number;
  /** The client the answer is limited to, or null for every client of the account. */
  clientFilter: string | null;
  clients: { id: string; name: string | null }[];
  /** Parts the service did not answer; the rest is shown. */
  partial: { clientId: string | null; part: string; message: string }[];
  reportsPerWeek: { week: string; type: string; outcome: TOutcome; count: number }[];
  timeToTakedown: {
    buckets: string[];
    overall: DurationGroup | null;
    byRegistrar: DurationGroup[];
    byHosting: DurationGroup[];
  };
  successRate: {
    /** attempts: resolved takedown attempts; statuses: current statuses (attempts not readable). */
    basis: 'attempts' | 'statuses';
    rows: {
      clientId: string;
      clientName: string | null;
      succeeded: number;
      failed: number;
      rate: number | null;
    }[];
  };
  blocklistCoverage: {
    incidents: number;
    covered: number;
    rate: number | null;
    rows: { authority: string; listed: number; submitted: number }[];
  };
  credits: {
    rows: {
      clientId: string;
      clientName: string | null;
      remainingCredits: number | 'unlimited' | null | 'unknown';
      takedownsStarted: number;
    }[];
  };
  waitingOnCustomer: {
    rows: {
      clientId: string;
      incidentId: string;
      subject: string;
      since: string;
      ageDays: number;
      ticketId: number | null;
      /** The ticket in the agent workspace, when the incident is linked to one (set by the router). */
      ticketUrl?: string | null;
    }[];
  };
}
