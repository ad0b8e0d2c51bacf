import { useState } from 'react';
import styled from 'styled-components';
import { Button } from '@zendeskgarden/react-buttons';
import { useI18n } from '../hooks/useI18n';
import { ActionConfirmDialog } from './ActionConfirmDialog';
import type { ActionSpec, TConfirmedActionId } from './useActionRunner';

interface Props {
  action: ActionSpec<TConfirmedActionId>;
  runner: { pending: string | null; run: (action: ActionSpec) => Promise<void> };
  isDanger?: boolean;
  /** Replaces actions.<id>.button, e.g. to say what approving costs. */
  label?: string;
  /** Replaces actions.<id>.confirmBody, so the confirmation says what the button said. */
  confirmBody?: string;
  /** Why the action cannot run now; the button is disabled and the reason shown next to it. */
  disabledReason?: string;
  describedBy?: string;
}

/** Labels such as "Approve takedown · uses 1 of 24 credits" wrap in a 320 px panel, never cut. */
const WrappingButton = styled(Button)`
  && {
    white-space: normal;
    height: auto;
    min-height: ${(p) => p.theme.space.base * 8}px;
    padding-block: ${(p) => p.theme.space.xxs};
    text-align: start;
    overflow-wrap: anywhere;
  }
`;

/** A button that asks for confirmation (texts from actions.<id>.*) before running the action. */
export function ConfirmActionButton({
  action,
  runner,
  isDanger,
  label,
  confirmBody,
  disabledReason,
  describedBy,
}: Props) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  return (
    <>
      <WrappingButton
        size="small"
        isDanger={isDanger}
        disabled={runner.pending !== null || disabledReason !== undefined}
        aria-describedby={describedBy}
        onClick={() => setOpen(true)}
      >
        {label ?? t(`actions.${action.id}.button`)}
      </WrappingButton>
      {open ? (
        <ActionConfirmDialog
          action={action}
          runner={runner}
          isDanger={isDanger}
          body={confirmBody}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}
