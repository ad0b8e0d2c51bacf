// How a job tells the account's writer that a change waits: all a sync handler needs of it.
export interface TicketWriterSignal {
  /**
   * A change for the account was recorded: write it when the budget allows, not before `readyAt`
   * (its hold), so no pass runs only to find it not ready yet.
   */
  signal(accountId: string, readyAt?: Date): void;
}
