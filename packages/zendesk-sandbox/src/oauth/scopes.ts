export type TAccess = 'read' | 'write';

const SCOPE_RESOURCES = [
  'tickets',
  'users',
  'organizations',
  'apps',
  'triggers',
  'webhooks',
  'automations',
  'targets',
  'auditlogs',
  'hc',
] as const;

export function parseScopes(value: string | undefined): string[] {
  return (value ?? '').split(/[\s,]+/).filter((s) => s !== '');
}

export function isKnownScope(scope: string): boolean {
  if (scope === 'read' || scope === 'write' || scope === 'impersonate') return true;
  const [resource, access] = scope.split(':');
  return (
    (SCOPE_RESOURCES as readonly string[]).includes(resource ?? '') &&
    (access === 'read' || access === 'write')
  );
}

/**
 * Zendesk's rule: `read` / `write` cover every resource; `<resource>:<access>` covers one. `write` does not
 * imply `read`. `resource` null means only the broad scope grants it (e.g. ticket field creation, unconfirmed).
 */
export function scopeAllows(
  scopes: readonly string[],
  resource: string | null,
  access: TAccess,
): boolean {
  if (scopes.includes(access)) return true;
  return resource !== null && scopes.includes(`${resource}:${access}`);
}
