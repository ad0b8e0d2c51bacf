import { SM } from '@zendeskgarden/react-typography';
import { useI18n } from '../hooks/useI18n';
import { ConfirmDialog } from './LazyConfirmDialog';
import type { ActionSpec } from './useActionRunner';

interface Props {
  action: ActionSpec;
  runner: { pending: string | null; run: (action: ActionSpec) => Promise<void> };
  isDanger?: boolean;
  onClose: () => void;
}

/** The confirmation of one action (texts from actions.<id>.*), closed once the action has run. */
export function ActionConfirmDialog({ action, runner, isDanger, onClose }: Props) {
  const { t } = useI18n();
  return (
    <ConfirmDialog
      title={t(`actions.${action.id}.confirmTitle`)}
      confirmLabel={t(`actions.${action.id}.confirm`)}
      isDanger={isDanger}
      pending={runner.pending === action.id}
      onCancel={onClose}
      onConfirm={async () => {
        await runner.run(action);
        onClose();
      }}
    >
      <SM>{t(`actions.${action.id}.confirmBody`)}</SM>
    </ConfirmDialog>
  );
}
