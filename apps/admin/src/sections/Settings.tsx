import { useState } from 'react';
import { Button } from '@zendeskgarden/react-buttons';
import { Field, Toggle } from '@zendeskgarden/react-forms';
import { MD, SM } from '@zendeskgarden/react-typography';
import { api, type Overview, type Settings as TSettings } from '../api';
import { Section } from '../ui';
import { GroupField } from './GroupField';
import { IncidentConnection } from './IncidentConnection';

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
  [
    'createZendeskViews',
    'Queue views in Zendesk',
    'Setup creates two shared views, “Takedowns waiting for approval” and “Incidents needing your action”; turned off, the next setup run removes them.',
  ],
];

export function Settings(props: {
  overview: Overview;
  refresh: () => void;
  /** False while the first-run checklist holds the incident form. */
  showIncidentForm: boolean;
}) {
  const { overview, refresh } = props;
  const [settings, setSettings] = useState(overview.settings);
  const [group, setGroup] = useState(
    overview.settings.newTicketGroupId === null ? '' : String(overview.settings.newTicketGroupId),
  );
  const [groupProblem, setGroupProblem] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  async function save() {
    const trimmed = group.trim();
    setOutcome(null);
    if (trimmed !== '' && !/^\d{1,19}$/.test(trimmed)) {
      setGroupProblem('A group id is a number, e.g. 360001234567; leave it empty for the default.');
      return;
    }
    setGroupProblem(null);
    setBusy(true);
    try {
      await api.saveSettings({
        ...settings,
        newTicketGroupId: trimmed === '' ? null : Number(trimmed),
      });
      setOutcome({ ok: true, text: 'Settings saved.' });
      refresh();
    } catch (error) {
      setOutcome({ ok: false, text: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Section id="settings" title="Settings">
      <form
        id="settings-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
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
        <GroupField value={group} onChange={setGroup} problem={groupProblem} />
        <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
          <Button id="save-settings" type="submit" isPrimary size="small" disabled={busy}>
            {busy ? '…' : 'Save settings'}
          </Button>
          {outcome ? (
            <SM
              role={outcome.ok ? 'status' : 'alert'}
              style={outcome.ok ? {} : { color: '#cc3340' }}
            >
              {outcome.text}
            </SM>
          ) : null}
        </div>
      </form>

      {props.showIncidentForm ? (
        <>
          <MD tag="h3" isBold style={{ marginTop: 24, marginBottom: 8 }}>
            Incident service
          </MD>
          <IncidentConnection overview={overview} refresh={refresh} />
        </>
      ) : null}
    </Section>
  );
}
