import { SM } from '@zendeskgarden/react-typography';
import { useI18n } from '../hooks/useI18n';
import { ConfirmDialog } from './LazyConfirmDialog';
import type { ActionSpec, TConfirmedActionId } from './useActionRunner';

interface Props {
  action: ActionSpec<TConfirmedActionId>;
  runner: { pending: string | null; run: (action: ActionSpec) => Promise<void> };
  isDanger?: boolean;
  /** Replaces actions.<id>.confirmBody. */
  body?: string;
  onClose: () => void;
}

/** The confirmation of one action (texts from actions.<id>.*), closed once the action has run. */
export function ActionConfirmDialog({ action, runner, isDanger, body, onClose }: Props) {
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
      <SM>{body ?? t(`actions.${action.id}.confirmBody`)}</SM>
    </ConfirmDialog>
  );
}
