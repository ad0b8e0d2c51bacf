// Why a ticket waits in the reconciliation queue, as GET /admin/api/reconciliation answers it
// (`why`, beside the English `detail`): the connector's unlinked reason, worded in the admin's
// language by apps/admin/src/sections/Reconciliation.tsx. Null for entries written before the
// codes, whose English detail is shown as it is; a kind the page does not know reads generically.
export type TUnlinkedWhy =
  | { kind: 'duplicate'; status: number }
  | { kind: 'lost_answer'; failure: string }
  | { kind: 'stopped_while_sending' }
  | { kind: 'ticket_being_opened'; incidentId: string }
  | { kind: 'link_collides'; incidentId: string; other: string };
