import { useState } from 'react';
import { Field, Input } from '@zendeskgarden/react-forms';
import { SM } from '@zendeskgarden/react-typography';
import { api, type ReconciliationEntry } from '../api';
import { ActionButton, Section, When } from '../ui';

function EntryRow({ entry, refresh }: { entry: ReconciliationEntry; refresh: () => void }) {
  const [incidentId, setIncidentId] = useState('');
  return (
    <li data-testid="reconciliation-entry" style={{ marginBottom: 12 }}>
      <SM>
        Ticket {entry.ticketId}: {entry.reason}
        {entry.detail ? ` (${entry.detail})` : ''}, <When value={entry.createdAt} />
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
            refresh();
            return result.message;
          }}
        />
        <ActionButton
          label="Retry"
          run={async () => {
            const result = await api.retryLink(entry.ticketId);
            refresh();
            return result.message;
          }}
        />
      </div>
    </li>
  );
}

export function Reconciliation(props: { entries: ReconciliationEntry[]; refresh: () => void }) {
  return (
    <Section id="reconciliation" title="Reconciliation queue (unlinked tickets)">
      {props.entries.length === 0 ? <SM>No ticket waits to be linked.</SM> : null}
      <ul>
        {props.entries.map((entry) => (
          <EntryRow key={entry.ticketId} entry={entry} refresh={props.refresh} />
        ))}
      </ul>
    </Section>
  );
}
