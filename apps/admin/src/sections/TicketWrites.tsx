import { Tag } from '@zendeskgarden/react-tags';
import type { Overview } from '../api';
import { ticketWriteText, type TicketWriteTone } from '../ticket-write-text';
import { Row } from '../ui';

const HUE: Record<TicketWriteTone, 'green' | 'yellow' | 'red'> = {
  ok: 'green',
  recovering: 'yellow',
  late: 'yellow',
  failing: 'red',
};

/** Whether incident changes reach the account's tickets: a valid token alone does not say so. */
export function TicketWrites({ overview }: { overview: Overview }) {
  const text = ticketWriteText(overview.ticketWrites);
  const { subdomain } = overview.account;
  return (
    <>
      <Row label="Ticket updates" testId="ticket-writes">
        <span data-tone={text.tone}>
          <Tag hue={HUE[text.tone]}>{text.label}</Tag> {text.sentence}
        </span>
      </Row>
      {text.needsAuthorisation && overview.connection.state !== 'reauthorization_required' ? (
        <Row label="Authorise again">
          <a href={`/install?subdomain=${encodeURIComponent(subdomain)}`}>
            Authorise incident-desk with Zendesk
          </a>
        </Row>
      ) : null}
    </>
  );
}
