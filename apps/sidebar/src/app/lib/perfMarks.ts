/**
 * Marked once, when the first view is on screen: its startTime is the time since the iframe's
 * navigation began, which is what the budget ("iframe load to incident detail visible") measures.
 */
const VIEW_READY_MARK = 'incident-desk:view-ready';

/**
 * The steps on the way to the first view, each marked once (`incident-desk:<stage>`), so the
 * budget bench can say where the time goes.
 */
export type LoadStage =
  /** the entry script runs (the bundle is fetched, parsed and this module evaluated) */
  | 'boot'
  /** the UI chunk (React, Garden, styled-components, the sections) is evaluated */
  | 'ui-loaded'
  /** Zendesk answered the handshake: metadata and context are known */
  | 'zaf-registered'
  /** the one `get` for agent, ticket and account answered */
  | 'session-facts'
  /** the connector's view request is sent */
  | 'view-requested'
  /** the connector's view answered */
  | 'view-answered'
  /** the React tree is mounted (its first commit, the skeleton) */
  | 'app-mounted';

function markOnce(name: string, detail?: unknown): void {
  if (typeof performance === 'undefined' || typeof performance.mark !== 'function') return;
  if (performance.getEntriesByName(name).length > 0) return;
  performance.mark(name, detail === undefined ? undefined : { detail });
}

export function markStage(stage: LoadStage): void {
  markOnce(`incident-desk:${stage}`);
}

export function markViewReady(linkState: string): void {
  markOnce(VIEW_READY_MARK, { linkState });
}
