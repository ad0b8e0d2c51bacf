// One change of a ticket as it is applied (create or update): the ticket before and after, the
// comment and audit events it adds, and the hooks around its commit.
import type {
  AccountRecord,
  AuditEventRecord,
  AuditRecord,
  CommentRecord,
  TicketRecord,
  UserRecord,
} from './model';

type AuditEvent = AuditEventRecord;

export interface TicketChange {
  kind: 'create' | 'update';
  account: AccountRecord;
  actor: UserRecord;
  channel: string;
  previous: TicketRecord | null;
  ticket: TicketRecord;
  comment: CommentRecord | null;
  events: AuditEvent[];
  auditId: number;
  /** The request's `metadata`: the audit's `metadata.custom`. */
  metadata: Record<string, unknown>;
  /** The audit kept for the change; null when the update changed nothing (Zendesk keeps none then). */
  audit: AuditRecord | null;
}

/** Runs after a change is applied and before it is committed (triggers), then after commit (index, webhooks, listeners). */
export interface TicketChangeHooks {
  beforeCommit(change: TicketChange): void;
  afterCommit(change: TicketChange): void;
}
