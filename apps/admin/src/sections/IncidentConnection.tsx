// The incident service's API key and clients. The connector checks the key with the service before
// it keeps it; a refusal is shown beside the field it concerns.
import { useState } from 'react';
import { Button } from '@zendeskgarden/react-buttons';
import { Field, Input } from '@zendeskgarden/react-forms';
import { SM } from '@zendeskgarden/react-typography';
import { api, ApiError, type Overview } from '../api';

type FieldName = 'apiKey' | 'clientId' | 'subClientIds';
type Problems = Partial<Record<FieldName | 'form', string>>;

/** Which field a refusal of the connector concerns. */
const FIELD_OF_CODE: Record<string, FieldName> = {
  api_key_refused: 'apiKey',
  api_key_required: 'apiKey',
  client_not_covered: 'clientId',
};

export function IncidentConnection(props: { overview: Overview; refresh: () => void }) {
  const { incident } = props.overview;
  const [apiKey, setApiKey] = useState('');
  const [clientId, setClientId] = useState(incident.clientId ?? '');
  const [subClients, setSubClients] = useState(incident.subClientIds.join(', '));
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);

  async function save() {
    const found: Problems = {};
    if (!apiKey.trim() && incident.apiKey !== 'set') found.apiKey = 'Enter the API key.';
    if (!clientId.trim()) found.clientId = 'Enter the client id the key belongs to.';
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
      setSaved(`Saved: the key works for ${result.clientName} (${result.clientId}).`);
      props.refresh();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const field = error instanceof ApiError && error.code ? FIELD_OF_CODE[error.code] : undefined;
      setProblems({ [field ?? 'form']: message });
    } finally {
      setBusy(false);
    }
  }

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
        <Field.Label>Incident API key</Field.Label>
        <Field.Hint id="api-key-state">
          {incident.apiKey === 'set'
            ? `Set${incident.clientName ? ` for ${incident.clientName}` : ''}. Leave empty to keep it; it is never shown again.`
            : 'Not set. The key is checked with the incident service before it is saved.'}
        </Field.Hint>
        <Input
          name="apiKey"
          type="password"
          autoComplete="off"
          value={apiKey}
          validation={problems.apiKey ? 'error' : undefined}
          onChange={(event) => setApiKey(event.target.value)}
        />
        {message('apiKey')}
      </Field>
      <Field style={{ marginBottom: 12 }}>
        <Field.Label>Client id</Field.Label>
        <Input
          name="clientId"
          value={clientId}
          validation={problems.clientId ? 'error' : undefined}
          onChange={(event) => setClientId(event.target.value)}
        />
        {message('clientId')}
      </Field>
      <Field style={{ marginBottom: 12 }}>
        <Field.Label>Sub-clients</Field.Label>
        <Field.Hint>Client ids, separated by commas.</Field.Hint>
        <Input
          name="subClientIds"
          value={subClients}
          onChange={(event) => setSubClients(event.target.value)}
        />
        {message('subClientIds')}
      </Field>
      <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
        <Button id="save-connection" type="submit" isPrimary size="small" disabled={busy}>
          {busy ? 'Checking the key…' : 'Save incident service'}
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
