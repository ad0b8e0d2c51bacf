// The ticket writes' gauges, read from the accounts' write health at each scrape: the oldest
// waiting change, the accounts in trouble by cause, and the late accounts by subdomain (bounded).
import { Gauge, type Registry } from 'prom-client';
import {
  PREFIX,
  TROUBLED_SERIES_MAX,
  type ConnectorMetrics,
  type TicketWriteHealthReader,
} from './metric-types';

export function ticketWriteGauges(registry: Registry): Pick<ConnectorMetrics, 'watchTicketWrites'> {
  let ticketWrites: TicketWriteHealthReader | undefined;
  const oldestWaiting = new Gauge({
    name: `${PREFIX}ticket_write_oldest_waiting_seconds`,
    help: 'Age of the oldest ticket change waiting to be written, across every account (0 when none waits).',
    registers: [registry],
    async collect() {
      if (ticketWrites) this.set((await ticketWrites.read()).oldestWaitingSeconds);
    },
  });
  const troubledAccounts = new Gauge({
    name: `${PREFIX}ticket_write_troubled_accounts`,
    help: 'Accounts whose ticket writes fail, by cause, recover (cause="recovering": Zendesk takes updates again, changes a failure held back still wait) or are late (cause="late": a change waits past TICKET_WRITE_LATE_SECONDS without an error).',
    labelNames: ['cause'] as const,
    registers: [registry],
    async collect() {
      if (!ticketWrites) return;
      for (const [cause, count] of Object.entries((await ticketWrites.read()).troubled))
        this.set({ cause }, count);
    },
  });
  const lateAccountWaiting = new Gauge({
    name: `${PREFIX}ticket_write_late_account_oldest_waiting_seconds`,
    help: `Age of the oldest waiting ticket change of each account past TICKET_WRITE_LATE_SECONDS, by Zendesk subdomain; the ${TROUBLED_SERIES_MAX} longest waiting only.`,
    labelNames: ['subdomain'] as const,
    registers: [registry],
    async collect() {
      // an account that caught up loses its series
      this.reset();
      if (!ticketWrites) return;
      const health = await ticketWrites.read();
      const late = health.accounts
        .filter((account) => (account.oldestWaitingSeconds ?? 0) > health.lateAfterSeconds)
        .sort((a, b) => (b.oldestWaitingSeconds ?? 0) - (a.oldestWaitingSeconds ?? 0))
        .slice(0, TROUBLED_SERIES_MAX);
      for (const account of late)
        this.set({ subdomain: account.subdomain }, account.oldestWaitingSeconds ?? 0);
    },
  });
  void oldestWaiting;
  void troubledAccounts;
  void lateAccountWaiting;

  return {
    watchTicketWrites(reader) {
      ticketWrites = reader;
    },
  };
}
