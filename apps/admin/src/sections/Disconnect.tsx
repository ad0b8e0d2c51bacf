// Disconnect: a confirmation dialog says what goes (in Zendesk, at the incident service, here)
// and what stays, with the choice to delete the ticket fields even when tickets use them. When the
// stored token cannot remove setup's objects, the dialog sends the admin to Zendesk to authorise
// the removal; back on the page (?disconnect=authorized) it opens again to confirm.
import { useState } from 'react';
import { Button } from '@zendeskgarden/react-buttons';
import { SM } from '@zendeskgarden/react-typography';
import type { DisconnectResult } from '@incident-desk/admin-contract';
import { api, ApiError, type Overview } from '../api';
import { useTexts } from '../i18n/i18n';
import { Section } from '../ui';
import { DisconnectDialog, type DisconnectRequest } from './DisconnectDialog';

/** The dialog's state: open or not, the fields choice, and a confirmation under way or refused. */
function useDisconnectRequest(
  overview: Overview,
  openAtStart: boolean,
  onDisconnected: (result: DisconnectResult) => void,
): DisconnectRequest & { isOpen: boolean; open: () => void } {
  const [isOpen, setOpen] = useState(openAtStart);
  const [deleteFields, setDeleteFields] = useState(false);
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [needsAuthorization, setNeedsAuthorization] = useState(!overview.disconnect.canRemoveNow);

  async function confirm() {
    setPending(true);
    setProblem(null);
    try {
      onDisconnected(await api.disconnect(deleteFields));
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
  return {
    isOpen,
    open: () => setOpen(true),
    close,
    confirm: () => void confirm(),
    deleteFields,
    setDeleteFields,
    pending,
    problem,
    needsAuthorization,
  };
}

export function Disconnect(props: {
  overview: Overview;
  /** Open the dialog at once (the admin is back from authorising the removal). */
  openAtStart?: boolean;
  onDisconnected: (result: DisconnectResult) => void;
}) {
  const t = useTexts().disconnect;
  const subdomain = props.overview.account.subdomain;
  const request = useDisconnectRequest(
    props.overview,
    props.openAtStart ?? false,
    props.onDisconnected,
  );
  return (
    <Section id="disconnect" title={t.title}>
      <SM style={{ marginBottom: 8 }}>{t.intro(subdomain)}</SM>
      <Button id="disconnect-open" isDanger size="small" onClick={request.open}>
        {t.open}
      </Button>
      {request.isOpen ? <DisconnectDialog subdomain={subdomain} request={request} /> : null}
    </Section>
  );
}
