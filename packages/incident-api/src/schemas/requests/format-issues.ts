import type { z } from 'zod';

/** Field path of an issue; unknown keys are named by the keys themselves. */
export function issueField(issue: z.core.$ZodIssue): string {
  if (issue.path.length > 0) {
    return issue.path
      .map((part, index) =>
        typeof part === 'number' ? `[${part}]` : `${index > 0 ? '.' : ''}${String(part)}`,
      )
      .join('');
  }
  if (issue.code === 'unrecognized_keys') return issue.keys.join(', ');
  return '(request)';
}

/** "field: rule; field: rule" — one line a caller can show or log. */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((issue) => `${issueField(issue)}: ${issue.message}`).join('; ');
}
