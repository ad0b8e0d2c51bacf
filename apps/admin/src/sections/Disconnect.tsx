// Disconnect: a confirmation dialog says what goes (in Zendesk, at the incident service, here)
// and what stays, with the choice to delete the ticket fields even when tickets use them. When the
// stored token cannot remove setup's objects, the dialog sends the admin to Zendesk to authorise
// the removal; back on the page (?disconnect=authorized) it opens again to confirm.
import { useState } from 'react';
import { Button } from '@zendeskgarden/react-buttons';
import { Checkbox, Field } from '@zendeskgarden/react-forms';
import { Modal } from '@zendeskgarden/react-modals';
import { MD, SM } from '@zendeskgarden/react-typography';
import type { DisconnectResult } from '@incident-desk/admin-contract';
import { api, ApiError, type Overview } from '../api';
import { Section } from '../ui';

const AUTHORIZE_URL = '/admin/disconnect/authorize';

export function Disconnect(props: {
  overview: Overview;
  /** Open the dialog at once (the admin is back from authorising the removal). */
  openAtStart?: boolean;
  onDisconnected: (result: DisconnectResult) => void;
}) {
  const { overview } = props;
  const [open, setOpen] = useState(props.openAtStart ?? false);
  const [deleteFields, setDeleteFields] = useState(false);
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [needsAuthorization, setNeedsAuthorization] = useState(!overview.disconnect.canRemoveNow);
  const subdomain = overview.account.subdomain;

  async function confirm() {
    setPending(true);
    setProblem(null);
    try {
      props.onDisconnected(await api.disconnect(deleteFields));
    } catch (error) {
      if (error instanceof ApiError && error.code === 'authorization_needed')
        setNeedsAuthorization(true);
      setProblem(error instanceof Error ? error.message : String(error));
      setPending(false);
    }
  }

  const close = () => {
    setOpen(false);
    setProblem(null);
  };

  return (
    <Section id="disconnect" title="Disconnect">
      <SM style={{ marginBottom: 8 }}>
        Stop incident-desk for {subdomain} and remove what it created in Zendesk.
      </SM>
      <Button id="disconnect-open" isDanger size="small" onClick={() => setOpen(true)}>
        Disconnect…
      </Button>
      {open ? (
        <Modal onClose={pending ? undefined : close} isAnimated={false} focusOnMount restoreFocus>
          <Modal.Header tag="h2" isDanger>
            Disconnect incident-desk from {subdomain}?
          </Modal.Header>
          <Modal.Body>
            <MD>This removes, and cannot be undone:</MD>
            <ul id="disconnect-removes">
              <li>
                the views “Takedowns waiting for approval” and “Incidents needing your action”, the
                incident-desk triggers and the webhook they notify, in Zendesk;
              </li>
              <li>the incident service’s webhook subscriptions for your clients;</li>
              <li>incident-desk’s Zendesk authorisation (revoked) and the incident API key;</li>
              <li>
                what incident-desk keeps about this account: the links between tickets and incidents
                and their history. The incidents themselves stay in the incident service, and the
                notes stay on the tickets.
              </li>
            </ul>
            <MD>
              The ticket fields Threat URL, Incident ID and Incident Status are deleted only when no
              ticket holds a value in them.
            </MD>
            <Field style={{ marginTop: 12 }}>
              <Checkbox
                checked={deleteFields}
                onChange={(event) => setDeleteFields(event.target.checked)}
              >
                <Field.Label>Delete the ticket fields even when tickets use them</Field.Label>
                <Field.Hint>Their values are lost on every ticket.</Field.Hint>
              </Checkbox>
            </Field>
            {needsAuthorization ? (
              <SM id="disconnect-authorize-note" style={{ marginTop: 12 }}>
                Zendesk must allow the removal first: you go to Zendesk to authorise it, then come
                back here to confirm.
              </SM>
            ) : null}
            {problem ? (
              <SM role="alert" style={{ marginTop: 12, color: '#cc3340' }}>
                {problem}
              </SM>
            ) : null}
          </Modal.Body>
          <Modal.Footer>
            <Modal.FooterItem>
              <Button isBasic onClick={close} disabled={pending}>
                Cancel
              </Button>
            </Modal.FooterItem>
            <Modal.FooterItem>
              {needsAuthorization ? (
                <Button
                  id="disconnect-authorize"
                  isPrimary
                  isDanger
                  onClick={() => window.location.assign(AUTHORIZE_URL)}
                >
                  Authorise with Zendesk
                </Button>
              ) : (
                <Button
                  id="disconnect-confirm"
                  isPrimary
                  isDanger
                  onClick={() => void confirm()}
                  disabled={pending}
                  aria-busy={pending}
                >
                  {pending ? 'Disconnecting…' : 'Disconnect'}
                </Button>
              )}
            </Modal.FooterItem>
          </Modal.Footer>
          {pending ? null : <Modal.Close aria-label="Close" />}
        </Modal>
      ) : null}
    </Section>
  );
}
