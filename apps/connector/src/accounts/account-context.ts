// Everything a sync handler needs to act for one installed Zendesk account. The accounts module
// builds it from the database (sealed secrets, OAuth tokens with refresh); tests build it directly
// against the sandboxes. Handlers never read configuration or secrets any other way.
import type { IncidentClient } from '@incident-desk/incident-api';
import type { ZendeskClient } from '@incident-desk/zendesk-api';
import type { NoteLocale } from '../notes';

interface AccountFields {
  /** Threat URL: the URL, domain, email, E.164 phone or IPv4 to report. */
  threat: number;
  /** Incident ID: the id the report returned. */
  incidentId: number;
  /** Incident Status: optional field mirroring the incident's status. */
  status: number | null;
}

export interface AccountSettings {
  /** Forward internal notes to the incident too, not only public replies. Default off. */
  forwardInternalNotes: boolean;
  /** Solve the ticket when its incident reaches takedown_success. Default off. */
  solveOnTakedownSuccess: boolean;
  /** Open a ticket for an incident that has none. Default on; off = track ticket-originated reports only. */
  openTicketsForDetectedIncidents: boolean;
  /** Group that tickets opened for detected incidents go to. */
  newTicketGroupId: number | null;
}

export interface AccountContext {
  accountId: string;
  subdomain: string;
  zendesk: ZendeskClient;
  /**
   * The incident service as this account: the parent client, or, given a clientId (the event's or
   * a sub-client's), acting for that managed client.
   */
  incidents(clientId?: string): IncidentClient;
  fields: AccountFields;
  settings: AccountSettings;
  /** The language notes are written in: the account's default language in Zendesk, en or fr. */
  noteLocale: NoteLocale;
  /**
   * The token holds the global `read` scope the Ticket Audits API needs: a single update is found
   * by its audit's metadata. Without it, by its note's identity (sync/ticket-writes/note-identity.ts).
   */
  canReadAudits: boolean;
}

interface AccountContextOptions {
  /**
   * Aborts every request the context's clients make once it fires: a job that outran its timeout
   * (pg-boss fails it and aborts its signal) stops, rather than running beside its own retry.
   */
  signal?: AbortSignal;
}

export interface AccountContextProvider {
  /** Throws AccountUnavailableError when the account cannot act now (e.g. re-authorisation required). */
  forAccount(accountId: string, options?: AccountContextOptions): Promise<AccountContext>;
}

export class AccountUnavailableError extends Error {
  override name = 'AccountUnavailableError';
  constructor(
    readonly accountId: string,
    readonly reason:
      | 'unknown_account'
      | 'reauthorization_required'
      | 'not_configured'
      /** Its app was uninstalled or its grant lost (account-disconnection.ts). */
      | 'disconnected',
  ) {
    super(`account ${accountId} cannot act: ${reason.replace(/_/g, ' ')}`);
  }
}
