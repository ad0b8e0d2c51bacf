// OAuth scope strings as sets: what a token was granted against what a step needs.
export function scopeSet(scope: string): Set<string> {
  return new Set(scope.split(/\s+/).filter(Boolean));
}

/** Every scope of `needed` was granted, literally (Zendesk's `read` does not imply `tickets:read`). */
export function hasScopes(granted: string, needed: string): boolean {
  const have = scopeSet(granted);
  return [...scopeSet(needed)].every((scope) => have.has(scope));
}

/** The union, in first-seen order: install asks for setup's and the steady state's scopes. */
export function unionScopes(...scopes: string[]): string {
  return [...new Set(scopes.flatMap((scope) => [...scopeSet(scope)]))].join(' ');
}
