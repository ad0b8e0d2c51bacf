// "Group for new tickets": picked from the account's Zendesk groups; when Zendesk does not list
// them, a group id field says why.
import { useEffect, useState } from 'react';
import { Field, Input, Select } from '@zendeskgarden/react-forms';
import { api, ApiError, type ZendeskGroup } from '../api';
import type { Messages } from '../i18n/en';
import { useTexts } from '../i18n/i18n';

type Groups =
  | { kind: 'loading' }
  | { kind: 'listed'; groups: ZendeskGroup[] }
  | { kind: 'unlisted'; error: unknown };

/** Why the groups are not listed, in a sentence with what to do: never the API's raw text. */
function whyUnlisted(error: unknown, t: Messages['groupField']): string {
  const code = error instanceof ApiError ? error.code : undefined;
  switch (code) {
    case 'reauthorization_required':
    case 'disconnected':
      return t.reconnect;
    case 'groups_not_readable':
      return t.notReadable;
    default:
      return t.notListed;
  }
}

export function GroupField(props: {
  value: string;
  onChange: (value: string) => void;
  problem: string | null;
}) {
  const t = useTexts().groupField;
  const [groups, setGroups] = useState<Groups>({ kind: 'loading' });
  useEffect(() => {
    let live = true;
    api.zendeskGroups().then(
      (answer) => live && setGroups({ kind: 'listed', groups: answer.groups }),
      (error: unknown) => live && setGroups({ kind: 'unlisted', error }),
    );
    return () => {
      live = false;
    };
  }, []);

  const message = props.problem ? (
    <Field.Message validation="error" id="group-error">
      {props.problem}
    </Field.Message>
  ) : null;

  if (groups.kind === 'listed') {
    const known = groups.groups.some((group) => String(group.id) === props.value);
    return (
      <Field style={{ marginBottom: 12 }}>
        <Field.Label>{t.label}</Field.Label>
        <Field.Hint>{t.hint}</Field.Hint>
        <Select
          name="newTicketGroupId"
          value={props.value}
          validation={props.problem ? 'error' : undefined}
          onChange={(event) => props.onChange(event.target.value)}
        >
          <option value="">{t.defaultGroup}</option>
          {groups.groups.map((group) => (
            <option key={group.id} value={String(group.id)}>
              {group.name}
            </option>
          ))}
          {props.value !== '' && !known ? (
            <option value={props.value}>{t.gone(props.value)}</option>
          ) : null}
        </Select>
        {message}
      </Field>
    );
  }
  return (
    <Field style={{ marginBottom: 12 }}>
      <Field.Label>{t.label}</Field.Label>
      <Field.Hint>
        {groups.kind === 'loading' ? t.reading : t.emptyForDefault(whyUnlisted(groups.error, t))}
      </Field.Hint>
      <Input
        name="newTicketGroupId"
        inputMode="numeric"
        value={props.value}
        validation={props.problem ? 'error' : undefined}
        onChange={(event) => props.onChange(event.target.value)}
      />
      {message}
    </Field>
  );
}
