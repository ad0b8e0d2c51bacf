// What the agent may do on the open ticket, as the connector said with the view: the components
// that offer actions read it, so a light agent is never offered what the connector would refuse.
import { createContext, useContext } from 'react';
import type { TViewer } from '@incident-desk/sidebar-contract';

// A view without it (an older connector) offers actions; the connector still refuses them (403).
export const ViewerContext = createContext<TViewer>({ canAct: true, reason: null });

export function useViewer(): TViewer {
  return useContext(ViewerContext);
}
