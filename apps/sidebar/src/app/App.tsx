import { useRef, type ComponentType } from 'react';
import styled from 'styled-components';
import { Alert } from '@zendeskgarden/react-notifications';
import { useClient, useClientValue } from './hooks/useClient';
import { useAutoResize } from './hooks/useAutoResize';
import { useI18n } from './hooks/useI18n';
import { TicketSideBar, type TicketSideBarProps } from './locations/TicketSideBar';

const LOCATIONS: Record<string, ComponentType<TicketSideBarProps>> = {
  ticket_sidebar: TicketSideBar,
};

const Root = styled.main`
  box-sizing: border-box;
  width: 100%;
  min-width: 0;
  max-width: 100%;
  padding: ${(p) => p.theme.space.xs};
  overflow-wrap: anywhere;
`;

export interface AppProps {
  /** Passed to the location; tests shorten the refresh period. */
  refreshIntervalMs?: number;
}

export function App({ refreshIntervalMs }: AppProps) {
  const { t } = useI18n();
  const client = useClient();
  const { context } = useClientValue();
  const root = useRef<HTMLElement>(null);
  useAutoResize(client, root);
  const Location = LOCATIONS[context.location ?? 'ticket_sidebar'];
  return (
    <Root ref={root} aria-label={t('app.title')}>
      {Location ? (
        <Location refreshIntervalMs={refreshIntervalMs} />
      ) : (
        <Alert type="error" role="alert">
          <Alert.Paragraph>{t('app.unknownLocation')}</Alert.Paragraph>
        </Alert>
      )}
    </Root>
  );
}
