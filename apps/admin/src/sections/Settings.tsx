import { useState } from 'react';
import { Button } from '@zendeskgarden/react-buttons';
import { Field, Toggle } from '@zendeskgarden/react-forms';
import { MD, SM } from '@zendeskgarden/react-typography';
import { api, type Overview, type Settings as TSettings } from '../api';
import { useTexts } from '../i18n/i18n';
import { Section } from '../ui';
import { GroupField } from './GroupField';
import { IncidentConnection } from './IncidentConnection';

type ToggleName = keyof Omit<TSettings, 'newTicketGroupId'>;

/** The switches in the order the form shows them. */
const TOGGLES: ToggleName[] = [
  'forwardInternalNotes',
  'solveOnTakedownSuccess',
  'openTicketsForDetectedIncidents',
  'createZendeskViews',
];

/** The settings being edited, the group id checked before saving, and the save's outcome. */
function useSettingsForm(overview: Overview, refresh: () => void) {
  const t = useTexts().settings;
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
      setGroupProblem(t.groupIdIsNumber);
      return;
    }
    setGroupProblem(null);
    setBusy(true);
    try {
      await api.saveSettings({
        ...settings,
        newTicketGroupId: trimmed === '' ? null : Number(trimmed),
      });
      setOutcome({ ok: true, text: t.saved });
      refresh();
    } catch (error) {
      setOutcome({ ok: false, text: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(false);
    }
  }
  return { settings, setSettings, group, setGroup, groupProblem, outcome, busy, save };
}

export function Settings(props: {
  overview: Overview;
  refresh: () => void;
  /** False while the first-run checklist holds the incident form. */
  showIncidentForm: boolean;
}) {
  const { overview, refresh } = props;
  const t = useTexts().settings;
  const form = useSettingsForm(overview, refresh);
  return (
    <Section id="settings" title={t.title}>
      <form
        id="settings-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void form.save();
        }}
      >
        {TOGGLES.map((key) => (
          <Field key={key} style={{ marginBottom: 12 }}>
            <Toggle
              name={key}
              checked={form.settings[key]}
              onChange={(event) =>
                form.setSettings({ ...form.settings, [key]: event.target.checked })
              }
            >
              <Field.Label>{t.toggles[key][0]}</Field.Label>
              <Field.Hint>{t.toggles[key][1]}</Field.Hint>
            </Toggle>
          </Field>
        ))}
        <GroupField value={form.group} onChange={form.setGroup} problem={form.groupProblem} />
        <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
          <Button id="save-settings" type="submit" isPrimary size="small" disabled={form.busy}>
            {form.busy ? '…' : t.save}
          </Button>
          {form.outcome ? (
            <SM
              role={form.outcome.ok ? 'status' : 'alert'}
              style={form.outcome.ok ? {} : { color: '#cc3340' }}
            >
              {form.outcome.text}
            </SM>
          ) : null}
        </div>
      </form>
      {props.showIncidentForm ? (
        <>
          <MD tag="h3" isBold style={{ marginTop: 24, marginBottom: 8 }}>
            {t.incidentService}
          </MD>
          <IncidentConnection overview={overview} refresh={refresh} />
        </>
      ) : null}
    </Section>
  );
}
