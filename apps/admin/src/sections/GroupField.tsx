// "Group for new tickets": picked from the account's Zendesk groups; when Zendesk does not list
// them, a group id field says why.
import { useEffect, useState } from 'react';
import { Field, Input, Select } from '@zendeskgarden/react-forms';
import { api, ApiError, type ZendeskGroup } from '../api';

type Groups =
  | { kind: 'loading' }
  | { kind: 'listed'; groups: ZendeskGroup[] }
  | { kind: 'unlisted'; why: string };

/** Why the groups are not listed, in a sentence with what to do: never the API's raw text. */
function whyUnlisted(error: unknown): string {
  const code = error instanceof ApiError ? error.code : undefined;
  switch (code) {
    case 'reauthorization_required':
    case 'disconnected':
      return 'Reconnect Zendesk to choose a group: Zendesk no longer accepts incident-desk’s authorisation.';
    case 'groups_not_readable':
      return 'Zendesk does not let incident-desk read the groups; enter the group id instead.';
    default:
      return 'Zendesk could not list the groups just now; enter the group id instead.';
  }
}

export function GroupField(props: {
  value: string;
  onChange: (value: string) => void;
  problem: string | null;
}) {
  const [groups, setGroups] = useState<Groups>({ kind: 'loading' });
  useEffect(() => {
    let live = true;
    api.zendeskGroups().then(
      (answer) => live && setGroups({ kind: 'listed', groups: answer.groups }),
      (error: unknown) => live && setGroups({ kind: 'unlisted', why: whyUnlisted(error) }),
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
        <Field.Label>Group for new tickets</Field.Label>
        <Field.Hint>Tickets opened for detected incidents go to this Zendesk group.</Field.Hint>
        <Select
          name="newTicketGroupId"
          value={props.value}
          validation={props.problem ? 'error' : undefined}
          onChange={(event) => props.onChange(event.target.value)}
        >
          <option value="">The account&apos;s default group</option>
          {groups.groups.map((group) => (
            <option key={group.id} value={String(group.id)}>
              {group.name}
            </option>
          ))}
          {props.value !== '' && !known ? (
            <option value={props.value}>Group {props.value} (no longer in Zendesk)</option>
          ) : null}
        </Select>
        {message}
      </Field>
    );
  }
  return (
    <Field style={{ marginBottom: 12 }}>
      <Field.Label>Group for new tickets</Field.Label>
      <Field.Hint>
        {groups.kind === 'loading'
          ? 'Reading the groups from Zendesk…'
          : `${groups.why} Empty for the account's default.`}
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
