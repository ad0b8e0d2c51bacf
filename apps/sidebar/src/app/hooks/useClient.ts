import { useContext } from 'react';
import { ClientContext, type ClientValue } from '../contexts/clientContext';

export function useClientValue(): ClientValue {
  const value = useContext(ClientContext);
  if (!value) throw new Error('useClient() must be used inside <ClientProvider>.');
  return value;
}

export function useClient() {
  return useClientValue().client;
}
