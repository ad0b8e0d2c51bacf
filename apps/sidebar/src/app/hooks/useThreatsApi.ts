import { useMemo } from 'react';
import { connectorTransport } from '../api/transport';
import { createThreatsApi, type ThreatsApi } from '../api/threatsApi';
import { useClient } from './useClient';

/** The issue-18 calls, on the connector and session this page was served with; null without one. */
export function useThreatsApi(): ThreatsApi | null {
  const client = useClient();
  return useMemo(() => {
    const transport = connectorTransport(client);
    return transport ? createThreatsApi(transport) : null;
  }, [client]);
}
