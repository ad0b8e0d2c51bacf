// The incident service's API key and clients. The connector checks the key with the service before
// it keeps it; a refusal is shown beside the field it concerns.
import { useState } from 'react';
import { Button } from '@zendeskgarden/react-buttons';
import { Field, Input } from '@zendeskgarden/react-forms';
import { SM } from '@zendeskgarden/react-typography';
import { actionErrorText } from '../action-error-text';
import { api, ApiError, type Overview } from '../api';
import { useTexts } from '../i18n/i18n';

type FieldName = 'apiKey' | 'clientId' | 'subClientIds';
type Problems = Partial<Record<FieldName | 'form', string>>;

/** Which field a refusal of the connector concerns. */
const FIELD_OF_CODE: Record<string, FieldName> = {
  api_key_refused: 'apiKey',
  api_key_required: 'apiKey',
  client_not_covered: 'clientId',
};

/** The form's fields, the problems found before or by the connector, and the save's outcome. */
function useIncidentConnectionForm(overview: Overview, refresh: () => void) {
  const { incident } = overview;
  const texts = useTexts();
  const t = texts.incidentConnection;
  const [apiKey, setApiKey] = useState('');
  const [clientId, setClientId] = useState(incident.clientId ?? '');
  const [subClients, setSubClients] = useState(incident.subClientIds.join(', '));
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);

  async function save() {
    const found: Problems = {};
    if (!apiKey.trim() && incident.apiKey !== 'set') found.apiKey = t.enterKey;
    if (!clientId.trim()) found.clientId = t.enterClientId;
    setProblems(found);
    setSaved(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const result = await api.saveIncidentConnection({
        ...(apiKey.trim() ? { apiKey: apiKey.trim() } : {}),
        clientId: clientId.trim(),
        subClientIds: subClients
          .split(',')
          .map((id) => id.trim())
          .filter(Boolean),
      });
      setApiKey('');
      setSaved(t.saved(result.clientName, result.clientId, result.setup.state === 'queued'));
      refresh();
    } catch (error) {
      const message = actionErrorText(error, texts.actionError);
      const field = error instanceof ApiError && error.code ? FIELD_OF_CODE[error.code] : undefined;
      setProblems({ [field ?? 'form']: message });
    } finally {
      setBusy(false);
    }
  }

  return {
    fields: { apiKey, clientId, subClientIds: subClients },
    set: { apiKey: setApiKey, clientId: setClientId, subClientIds: setSubClients },
    problems,
    busy,
    saved,
    save,
  };
}

export function IncidentConnection(props: { overview: Overview; refresh: () => void }) {
  const { incident } = props.overview;
  const t = useTexts().incidentConnection;
  const { fields, set, problems, busy, saved, save } = useIncidentConnectionForm(
    props.overview,
    props.refresh,
  );
  const message = (name: FieldName) =>
    problems[name] ? (
      <Field.Message validation="error" id={`${name}-error`}>
        {problems[name]}
      </Field.Message>
    ) : null;

  return (
    <form
      id="incident-connection"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <Field style={{ marginBottom: 12 }}>
        <Field.Label>{t.apiKey}</Field.Label>
        <Field.Hint id="api-key-state">
          {incident.apiKey === 'set' ? t.keySet(incident.clientName) : t.keyNotSet}
        </Field.Hint>
        <Input
          name="apiKey"
          type="password"
          autoComplete="off"
          value={fields.apiKey}
          validation={problems.apiKey ? 'error' : undefined}
          onChange={(event) => set.apiKey(event.target.value)}
        />
        {message('apiKey')}
      </Field>
      <Field style={{ marginBottom: 12 }}>
        <Field.Label>{t.clientId}</Field.Label>
        <Input
          name="clientId"
          value={fields.clientId}
          validation={problems.clientId ? 'error' : undefined}
          onChange={(event) => set.clientId(event.target.value)}
        />
        {message('clientId')}
      </Field>
      <Field style={{ marginBottom: 12 }}>
        <Field.Label>{t.subClients}</Field.Label>
        <Field.Hint>{t.subClientsHint}</Field.Hint>
        <Input
          name="subClientIds"
          value={fields.subClientIds}
          onChange={(event) => set.subClientIds(event.target.value)}
        />
        {message('subClientIds')}
      </Field>
      <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
        <Button id="save-connection" type="submit" isPrimary size="small" disabled={busy}>
          {busy ? t.checking : t.save}
        </Button>
        {saved ? <SM role="status">{saved}</SM> : null}
        {problems.form ? (
          <SM role="alert" style={{ color: '#cc3340' }}>
            {problems.form}
          </SM>
        ) : null}
      </div>
    </form>
  );
}
