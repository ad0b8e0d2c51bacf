import { useState } from 'react';
import { Anchor } from '@zendeskgarden/react-buttons';
import { Field, Input } from '@zendeskgarden/react-forms';
import { SM } from '@zendeskgarden/react-typography';
import { api, type ReconciliationEntry } from '../api';
import { ActionButton, Section, When } from '../ui';

interface Done {
  ticketId: number;
  ticketUrl: string;
  message: string;
  at: string;
}

function EntryRow(props: {
  entry: ReconciliationEntry;
  refresh: () => void;
  onDone: (done: Done) => void;
}) {
  const { entry, refresh } = props;
  const report = (message: string) =>
    props.onDone({
      ticketId: entry.ticketId,
      ticketUrl: entry.ticketUrl,
      message,
      at: new Date().toISOString(),
    });
  const [incidentId, setIncidentId] = useState('');
  return (
    <li data-testid="reconciliation-entry" style={{ marginBottom: 12 }}>
      <SM isBold>
        <Anchor href={entry.ticketUrl} isExternal target="_blank" rel="noreferrer">
          Ticket #{entry.ticketId}
        </Anchor>
        {' · '}
        <When value={entry.createdAt} />
      </SM>
      <SM>
        Its report could not be linked to an incident ({entry.reason}
        {entry.detail ? `: ${entry.detail}` : ''}).
      </SM>
      <SM style={{ color: '#68737d', marginBottom: 4 }}>
        Link ties it to the incident you name (checked with the incident service first). Retry
        reports the ticket again, exactly as the sidebar&apos;s retry does.
      </SM>
      <div style={{ display: 'flex', gap: 8, alignItems: 'end' }}>
        <Field>
          <Field.Label isRegular>Incident id</Field.Label>
          <Input
            isCompact
            value={incidentId}
            onChange={(event) => setIncidentId(event.target.value)}
          />
        </Field>
        <ActionButton
          label="Link"
          run={async () => {
            const result = await api.link(entry.ticketId, incidentId.trim());
            report(`linked to incident ${incidentId.trim()}`);
            refresh();
            return result.message;
          }}
        />
        <ActionButton
          label="Retry"
          run={async () => {
            const result = await api.retryLink(entry.ticketId);
            report(
              `${result.message}: the worker reports it again; it comes back here if it cannot be linked`,
            );
            refresh();
            return result.message;
          }}
        />
      </div>
    </li>
  );
}

export function Reconciliation(props: { entries: ReconciliationEntry[]; refresh: () => void }) {
  const [done, setDone] = useState<Done[]>([]);
  const waiting = new Set(props.entries.map((entry) => entry.ticketId));
  return (
    <Section id="reconciliation" title="Reconciliation queue (unlinked tickets)">
      {done.length > 0 ? (
        <ul style={{ padding: 0, marginBottom: 12 }} aria-label="Handled">
          {done.map((item) => (
            <li
              key={item.ticketId}
              data-testid="reconciliation-done"
              style={{ listStyle: 'none', margin: '4px 0' }}
            >
              <SM>
                <Anchor href={item.ticketUrl} isExternal target="_blank" rel="noreferrer">
                  Ticket #{item.ticketId}
                </Anchor>
                : {item.message} (<When value={item.at} />)
                {waiting.has(item.ticketId) ? '; it is back in the queue below.' : '.'}
              </SM>
            </li>
          ))}
        </ul>
      ) : null}
      {props.entries.length === 0 ? <SM>No ticket waits to be linked.</SM> : null}
      <ul>
        {props.entries.map((entry) => (
          <EntryRow
            key={entry.ticketId}
            entry={entry}
            refresh={props.refresh}
            onDone={(item) =>
              setDone((list) => [item, ...list.filter((d) => d.ticketId !== item.ticketId)])
            }
          />
        ))}
      </ul>
    </Section>
  );
}
