import { useState } from 'react';
import { Anchor } from '@zendeskgarden/react-buttons';
import { Field, Input } from '@zendeskgarden/react-forms';
import { SM } from '@zendeskgarden/react-typography';
import { api, type ReconciliationEntry } from '../api';
import { useTexts } from '../i18n/i18n';
import { unlinkedWhyText } from '../unlinked-why-text';
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
  const texts = useTexts();
  const t = texts.reconciliation;
  const detail = entry.why ? unlinkedWhyText(entry.why, texts.unlinkedWhy) : entry.detail;
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
          {t.ticket(entry.ticketId)}
        </Anchor>
        {' · '}
        <When value={entry.createdAt} />
      </SM>
      <SM>
        {t.notLinked(
          detail
            ? t.reasonWithDetail(t.reason[entry.reason] ?? entry.reason, detail)
            : (t.reason[entry.reason] ?? entry.reason),
        )}
      </SM>
      <SM style={{ color: '#68737d', marginBottom: 4 }}>{t.explain}</SM>
      <div style={{ display: 'flex', gap: 8, alignItems: 'end' }}>
        <Field>
          <Field.Label isRegular>{t.incidentId}</Field.Label>
          <Input
            isCompact
            value={incidentId}
            onChange={(event) => setIncidentId(event.target.value)}
          />
        </Field>
        <ActionButton
          label={t.link}
          run={async () => {
            await api.link(entry.ticketId, incidentId.trim());
            report(t.linked(incidentId.trim()));
            refresh();
            return t.linkedStatus;
          }}
        />
        <ActionButton
          label={t.retry}
          run={async () => {
            await api.retryLink(entry.ticketId);
            report(t.retried);
            refresh();
            return t.retriedStatus;
          }}
        />
      </div>
    </li>
  );
}

export function Reconciliation(props: { entries: ReconciliationEntry[]; refresh: () => void }) {
  const t = useTexts().reconciliation;
  const [done, setDone] = useState<Done[]>([]);
  const waiting = new Set(props.entries.map((entry) => entry.ticketId));
  return (
    <Section id="reconciliation" title={t.title}>
      {done.length > 0 ? (
        <ul style={{ padding: 0, marginBottom: 12 }} aria-label={t.handled}>
          {done.map((item) => (
            <li
              key={item.ticketId}
              data-testid="reconciliation-done"
              style={{ listStyle: 'none', margin: '4px 0' }}
            >
              <SM>
                <Anchor href={item.ticketUrl} isExternal target="_blank" rel="noreferrer">
                  {t.ticket(item.ticketId)}
                </Anchor>
                : {item.message} (<When value={item.at} />)
                {waiting.has(item.ticketId) ? t.backInQueue : '.'}
              </SM>
            </li>
          ))}
        </ul>
      ) : null}
      {props.entries.length === 0 ? <SM>{t.none}</SM> : null}
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
