import { useState } from 'react';
import { Field, Input, Toggle } from '@zendeskgarden/react-forms';
import { api, type Overview, type Settings as TSettings } from '../api';
import { ActionButton, Section } from '../ui';

const TOGGLES: [keyof Omit<TSettings, 'newTicketGroupId'>, string, string][] = [
  [
    'forwardInternalNotes',
    'Forward internal notes',
    'Internal notes go to the incident too, not only public replies.',
  ],
  [
    'solveOnTakedownSuccess',
    'Solve on takedown success',
    'Solve the ticket when its incident reaches takedown_success.',
  ],
  [
    'openTicketsForDetectedIncidents',
    'Open tickets for detected incidents',
    'An incident detected elsewhere opens a ticket.',
  ],
];

export function Settings({ overview, refresh }: { overview: Overview; refresh: () => void }) {
  const [settings, setSettings] = useState(overview.settings);
  const [group, setGroup] = useState(
    overview.settings.newTicketGroupId === null ? '' : String(overview.settings.newTicketGroupId),
  );
  const [apiKey, setApiKey] = useState('');
  const [clientId, setClientId] = useState(overview.incident.clientId ?? '');
  const [subClients, setSubClients] = useState(overview.incident.subClientIds.join(', '));

  return (
    <Section id="settings" title="Settings">
      {TOGGLES.map(([key, label, hint]) => (
        <Field key={key} style={{ marginBottom: 12 }}>
          <Toggle
            name={key}
            checked={settings[key]}
            onChange={(event) => setSettings({ ...settings, [key]: event.target.checked })}
          >
            <Field.Label>{label}</Field.Label>
            <Field.Hint>{hint}</Field.Hint>
          </Toggle>
        </Field>
      ))}
      <Field style={{ marginBottom: 12 }}>
        <Field.Label>Group for new tickets</Field.Label>
        <Field.Hint>Zendesk group id; empty for the account&apos;s default.</Field.Hint>
        <Input
          name="newTicketGroupId"
          inputMode="numeric"
          value={group}
          onChange={(event) => setGroup(event.target.value)}
        />
      </Field>
      <ActionButton
        id="save-settings"
        label="Save settings"
        isPrimary
        run={async () => {
          const trimmed = group.trim();
          if (trimmed !== '' && !/^\d+$/.test(trimmed)) throw new Error('the group id is a number');
          await api.saveSettings({
            ...settings,
            newTicketGroupId: trimmed === '' ? null : Number(trimmed),
          });
          refresh();
          return 'saved';
        }}
      />

      <h3 style={{ marginTop: 24 }}>Incident service</h3>
      <Field style={{ marginBottom: 12 }}>
        <Field.Label>Incident API key</Field.Label>
        <Field.Hint id="api-key-state">
          {overview.incident.apiKey === 'set'
            ? 'Set. Leave empty to keep it; it is never shown again.'
            : 'Not set.'}
        </Field.Hint>
        <Input
          name="apiKey"
          type="password"
          autoComplete="off"
          value={apiKey}
          onChange={(event) => setApiKey(event.target.value)}
        />
      </Field>
      <Field style={{ marginBottom: 12 }}>
        <Field.Label>Client id</Field.Label>
        <Input
          name="clientId"
          value={clientId}
          onChange={(event) => setClientId(event.target.value)}
        />
      </Field>
      <Field style={{ marginBottom: 12 }}>
        <Field.Label>Sub-clients</Field.Label>
        <Field.Hint>Client ids, separated by commas.</Field.Hint>
        <Input
          name="subClientIds"
          value={subClients}
          onChange={(event) => setSubClients(event.target.value)}
        />
      </Field>
      <ActionButton
        id="save-connection"
        label="Save incident service"
        isPrimary
        run={async () => {
          await api.saveIncidentConnection({
            ...(apiKey.trim() ? { apiKey: apiKey.trim() } : {}),
            clientId: clientId.trim(),
            subClientIds: subClients
              .split(',')
              .map((id) => id.trim())
              .filter(Boolean),
          });
          setApiKey('');
          refresh();
          return 'saved';
        }}
      />
    </Section>
  );
}
