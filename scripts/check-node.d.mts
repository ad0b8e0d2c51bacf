/** What is wrong with `version` (e.g. `v20.20.2`) for `range` (`^24.11.0`), or null. */
export function nodeProblem(version: string, range: string): string | null;
