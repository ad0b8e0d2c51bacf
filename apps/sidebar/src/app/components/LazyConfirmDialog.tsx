import { Component, lazy, Suspense, useState, type ComponentProps, type ReactNode } from 'react';
import { Alert } from '@zendeskgarden/react-notifications';
import { Button } from '@zendeskgarden/react-buttons';
import { useI18n } from '../hooks/useI18n';
import { Row, Stack } from './layout';
import type * as DialogModule from './ConfirmDialog';

type Props = ComponentProps<typeof DialogModule.ConfirmDialog>;

let loading: Promise<typeof DialogModule> | null = null;

/**
 * The confirmation dialog's code (Garden's modals and focus trap) is not needed to show the
 * incident, so it is a chunk of its own: loaded after the first view is on screen, or at the
 * first click at the latest. A failed load is forgotten, so the next attempt fetches it again.
 */
export function preloadConfirmDialog(): Promise<typeof DialogModule> {
  loading ??= import('./ConfirmDialog').catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

// React.lazy keeps a failure for good: a new one is made after each failed load.
const lazyDialog = () =>
  lazy(() => preloadConfirmDialog().then((module) => ({ default: module.ConfirmDialog })));
let LazyDialog = lazyDialog();

class LoadBoundary extends Component<
  { fallback: ReactNode; onError: () => void; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch() {
    this.props.onError();
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/** ConfirmDialog, loaded on demand; while it loads nothing is shown, if it fails a retry is. */
export function ConfirmDialog(props: Props) {
  const { t } = useI18n();
  const [attempt, setAttempt] = useState(0);
  const failed = (
    <Alert type="error" role="alert" data-testid="dialog-load-failed">
      <Stack>
        <Alert.Paragraph>{t('actions.dialogLoadFailed')}</Alert.Paragraph>
        <Row>
          <Button size="small" onClick={() => setAttempt((n) => n + 1)}>
            {t('common.retry')}
          </Button>
          <Button size="small" isBasic onClick={props.onCancel}>
            {t('common.cancel')}
          </Button>
        </Row>
      </Stack>
    </Alert>
  );
  return (
    <LoadBoundary key={attempt} fallback={failed} onError={() => (LazyDialog = lazyDialog())}>
      <Suspense fallback={null}>
        <LazyDialog {...props} />
      </Suspense>
    </LoadBoundary>
  );
}
