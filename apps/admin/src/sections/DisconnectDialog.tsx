// The disconnect confirmation: what goes and what stays, the ticket fields choice, and either
// "Disconnect" or, while Zendesk must allow the removal first, "Authorise with Zendesk".
import { Button } from '@zendeskgarden/react-buttons';
import { Checkbox, Field } from '@zendeskgarden/react-forms';
import { Modal } from '@zendeskgarden/react-modals';
import { MD, SM } from '@zendeskgarden/react-typography';
import { useTexts } from '../i18n/i18n';

const AUTHORIZE_URL = '/admin/disconnect/authorize';

export interface DisconnectRequest {
  close: () => void;
  confirm: () => void;
  deleteFields: boolean;
  setDeleteFields: (deleteFields: boolean) => void;
  pending: boolean;
  problem: string | null;
  needsAuthorization: boolean;
}

function DialogBody({ request }: { request: DisconnectRequest }) {
  const t = useTexts().disconnect;
  return (
    <Modal.Body>
      <MD>{t.removes}</MD>
      <ul id="disconnect-removes">
        {t.removed.map((sentence) => (
          <li key={sentence}>{sentence}</li>
        ))}
      </ul>
      <MD>{t.fieldsKept}</MD>
      <Field style={{ marginTop: 12 }}>
        <Checkbox
          checked={request.deleteFields}
          onChange={(event) => request.setDeleteFields(event.target.checked)}
        >
          <Field.Label>{t.deleteFields}</Field.Label>
          <Field.Hint>{t.deleteFieldsHint}</Field.Hint>
        </Checkbox>
      </Field>
      {request.needsAuthorization ? (
        <SM id="disconnect-authorize-note" style={{ marginTop: 12 }}>
          {t.authorizeFirst}
        </SM>
      ) : null}
      {request.problem ? (
        <SM role="alert" style={{ marginTop: 12, color: '#cc3340' }}>
          {request.problem}
        </SM>
      ) : null}
    </Modal.Body>
  );
}

function ConfirmButton({ request }: { request: DisconnectRequest }) {
  const texts = useTexts();
  const t = texts.disconnect;
  if (request.needsAuthorization)
    return (
      <Button
        id="disconnect-authorize"
        isPrimary
        isDanger
        onClick={() => window.location.assign(AUTHORIZE_URL)}
      >
        {texts.common.authoriseWithZendesk}
      </Button>
    );
  return (
    <Button
      id="disconnect-confirm"
      isPrimary
      isDanger
      onClick={request.confirm}
      disabled={request.pending}
      aria-busy={request.pending}
    >
      {request.pending ? t.disconnecting : t.confirm}
    </Button>
  );
}

export function DisconnectDialog(props: { subdomain: string; request: DisconnectRequest }) {
  const t = useTexts().disconnect;
  const { request } = props;
  return (
    <Modal
      onClose={request.pending ? undefined : request.close}
      isAnimated={false}
      focusOnMount
      restoreFocus
    >
      <Modal.Header tag="h2" isDanger>
        {t.heading(props.subdomain)}
      </Modal.Header>
      <DialogBody request={request} />
      <Modal.Footer>
        <Modal.FooterItem>
          <Button isBasic onClick={request.close} disabled={request.pending}>
            {t.cancel}
          </Button>
        </Modal.FooterItem>
        <Modal.FooterItem>
          <ConfirmButton request={request} />
        </Modal.FooterItem>
      </Modal.Footer>
      {request.pending ? null : <Modal.Close aria-label={t.close} />}
    </Modal>
  );
}
