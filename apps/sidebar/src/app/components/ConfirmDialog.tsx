import type { ReactNode } from 'react';
import { Modal } from '@zendeskgarden/react-modals';
import { Button } from '@zendeskgarden/react-buttons';
import { useI18n } from '../hooks/useI18n';

interface Props {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  isDanger?: boolean;
  pending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  isDanger,
  pending,
  onConfirm,
  onCancel,
}: Props) {
  const { t } = useI18n();
  return (
    // Not centred: the iframe grows to its content, so its vertical centre can be far below the fold.
    <Modal
      onClose={pending ? undefined : onCancel}
      isAnimated={false}
      isCentered={false}
      focusOnMount
      restoreFocus
    >
      <Modal.Header tag="h2">{title}</Modal.Header>
      <Modal.Body>{children}</Modal.Body>
      <Modal.Footer>
        <Modal.FooterItem>
          <Button isBasic onClick={onCancel} disabled={pending}>
            {t('common.cancel')}
          </Button>
        </Modal.FooterItem>
        <Modal.FooterItem>
          <Button
            isPrimary
            isDanger={isDanger}
            onClick={onConfirm}
            disabled={pending}
            aria-busy={pending}
          >
            {pending ? t('common.working') : confirmLabel}
          </Button>
        </Modal.FooterItem>
      </Modal.Footer>
      {pending ? null : <Modal.Close aria-label={t('common.close')} />}
    </Modal>
  );
}
