// Why a ticket's report was not linked, in the admin's words, from the connector's codes; a kind
// this page does not know yet (a newer connector) reads as a generic phrase.
import type { TUnlinkedWhy } from '@incident-desk/admin-contract';
import type { Messages } from './i18n/en';

export function unlinkedWhyText(why: TUnlinkedWhy, t: Messages['unlinkedWhy']): string {
  switch (why.kind) {
    case 'duplicate':
      return why.status === 409 ? t.duplicateConflict : t.duplicateNoId;
    case 'lost_answer':
      return t.lostAnswer(why.failure);
    case 'stopped_while_sending':
      return t.stoppedWhileSending;
    case 'ticket_being_opened':
      return t.ticketBeingOpened(why.incidentId);
    case 'link_collides':
      return t.linkCollides(why.incidentId, why.other);
    default:
      return t.unknown;
  }
}
