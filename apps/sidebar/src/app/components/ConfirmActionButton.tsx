import { useState } from 'react';
import styled from 'styled-components';
import { Button } from '@zendeskgarden/react-buttons';
import { useI18n } from '../hooks/useI18n';
import { ActionConfirmDialog } from './ActionConfirmDialog';
import type { ActionSpec } from './useActionRunner';

interface Props {
  action: ActionSpec;
  runner: { pending: string | null; run: (action: ActionSpec) => Promise<void> };
  isPrimary?: boolean;
  isDanger?: boolean;
  /** Replaces actions.<id>.button, e.g. to say what approving costs. */
  label?: string;
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
  isPrimary,
  isDanger,
  label,
  disabledReason,
  describedBy,
}: Props) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  return (
    <>
      <WrappingButton
        size="small"
        isPrimary={isPrimary}
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
          onClose={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}
