// The incidents waiting on the customer, with their client, since when, and their ticket (linked).
import { Anchor } from '@zendeskgarden/react-buttons';
import { SM } from '@zendeskgarden/react-typography';
import type { Analytics as TAnalytics } from '../api';
import { clientNameOf } from '../analytics-shape';
import { cell } from '../charts';
import { useLanguage, useTexts } from '../i18n/i18n';
import { WideTable } from '../ui';

type Waiting = TAnalytics['waitingOnCustomer']['rows'][number];

function TicketCell({ row }: { row: Waiting }) {
  const t = useTexts().analytics;
  if (row.ticketId === null) return <>{t.noTicket}</>;
  if (!row.ticketUrl) return <>{`#${row.ticketId}`}</>;
  return (
    <Anchor href={row.ticketUrl} isExternal target="_blank" rel="noreferrer">
      #{row.ticketId}
    </Anchor>
  );
}

export function WaitingTable({ data }: { data: TAnalytics }) {
  const t = useTexts().analytics;
  const language = useLanguage();
  return (
    <WideTable label={t.waitingTable}>
      <table style={{ borderCollapse: 'collapse', marginTop: 8 }} data-testid="waiting-table">
        <caption style={{ textAlign: 'left' }}>
          <SM tag="span" isBold>
            {t.waitingTable}
          </SM>
        </caption>
        <thead>
          <tr>
            {t.waitingColumns.map((h) => (
              <th key={h} scope="col" style={cell}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.waitingOnCustomer.rows.map((r) => (
            <tr key={r.incidentId}>
              <td style={cell}>{r.subject}</td>
              <td style={cell}>{clientNameOf(data, r.clientId)}</td>
              <td style={cell}>
                <time dateTime={r.since}>{new Date(r.since).toLocaleString(language)}</time>
              </td>
              <td style={cell}>{r.ageDays}</td>
              <td style={cell}>
                <TicketCell row={r} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </WideTable>
  );
}
