import { useState } from 'react';
import { Button } from '@zendeskgarden/react-buttons';
import { SM } from '@zendeskgarden/react-typography';
import { useI18n } from '../hooks/useI18n';
import { ConfirmDialog } from './LazyConfirmDialog';
import type { ActionSpec } from './useActionRunner';

interface Props {
  action: ActionSpec;
  runner: { pending: string | null; run: (action: ActionSpec) => Promise<void> };
  isPrimary?: boolean;
  isDanger?: boolean;
}

/** A button that asks for confirmation (texts from actions.<id>.*) before running the action. */
export function ConfirmActionButton({ action, runner, isPrimary, isDanger }: Props) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="small"
        isPrimary={isPrimary}
        isDanger={isDanger}
        disabled={runner.pending !== null}
        onClick={() => setOpen(true)}
      >
        {t(`actions.${action.id}.button`)}
      </Button>
      {open ? (
        <ConfirmDialog
          title={t(`actions.${action.id}.confirmTitle`)}
          confirmLabel={t(`actions.${action.id}.confirm`)}
          isDanger={isDanger}
          pending={runner.pending === action.id}
          onCancel={() => setOpen(false)}
          onConfirm={async () => {
            await runner.run(action);
            setOpen(false);
          }}
        >
          <SM>{t(`actions.${action.id}.confirmBody`)}</SM>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
