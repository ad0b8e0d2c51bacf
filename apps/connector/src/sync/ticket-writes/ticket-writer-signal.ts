// How a job tells the account's writer that a change waits: all a sync handler needs of it.
export interface TicketWriterSignal {
  /** A change for the account was recorded: write it when the budget allows. */
  signal(accountId: string): void;
}
