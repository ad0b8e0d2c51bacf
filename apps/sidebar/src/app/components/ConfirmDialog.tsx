import { useLayoutEffect, useState, type ReactNode } from 'react';
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

/**
 * The top of the part of this frame the agent can see. The frame grows to its content and
 * Zendesk's apps panel scrolls it, so the frame's own top can be out of sight; an
 * IntersectionObserver on the document measures what the top-level page shows, even across origins.
 */
export function useVisibleTop(): number {
  const [top, setTop] = useState(0);
  useLayoutEffect(() => {
    if (typeof IntersectionObserver !== 'function') return undefined;
    const observer = new IntersectionObserver(([entry]) => {
      if (entry?.isIntersecting) setTop(Math.max(0, Math.round(entry.intersectionRect.top)));
    });
    observer.observe(document.documentElement);
    return () => observer.disconnect();
  }, []);
  return top;
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
  const visibleTop = useVisibleTop();
  return (
    // Not centred: the iframe grows to its content, so its vertical centre can be far below the
    // fold; the dialog opens at the top of what the agent sees of the frame instead.
    <Modal
      onClose={pending ? undefined : onCancel}
      isAnimated={false}
      isCentered={false}
      focusOnMount
      restoreFocus
      style={{ top: visibleTop }}
      data-visible-top={visibleTop}
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
