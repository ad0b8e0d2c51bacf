// A ticket update is counted in the account's shared budget only when it goes through one of the
// two writers: the direct one (sync/ticket-writer.ts, updateTicket / reserveTicketWrite) and the
// drain (sync/ticket-writes/send-ticket-writes.ts). Both send through one sender
// (sync/ticket-writes/send-ticket-update.ts), the only place that calls Zendesk's update. A new
// `tickets.update(` or `tickets.updateMany(` anywhere else in the connector's code would write
// uncounted, outside the account's pause: it fails here. Write through updateTicket instead.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '../src');

/** Where a direct Zendesk ticket update may be written, and which calls each holds. */
const HOMES: Record<string, string[]> = {
  'sync/ticket-writes/send-ticket-update.ts': ['update', 'updateMany'],
};

// `tickets.update(`, `tickets .updateMany (`, across a line break too; comments are not code
const TICKET_UPDATE = /\btickets\s*\??\.\s*(update|updateMany)\s*\(/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|js|mjs)$/.test(entry.name) ? [full] : [];
  });
}

function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
}

/** Each file's direct ticket update calls, by path under src/. */
function directUpdates(): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const file of sourceFiles(SRC)) {
    const calls = [...withoutComments(readFileSync(file, 'utf8')).matchAll(TICKET_UPDATE)].map(
      (match) => match[1]!,
    );
    if (calls.length > 0)
      found[path.relative(SRC, file).split(path.sep).join('/')] = [...new Set(calls)].sort();
  }
  return found;
}

describe('direct Zendesk ticket updates', () => {
  it('are sent only by the one sender of the two writers that count them in the budget', () => {
    expect(directUpdates()).toEqual(HOMES);
  });

  it('the scan finds a call however it is spaced, and skips one in a comment', () => {
    const sample = [
      'await ctx.zendesk.tickets.update(1, {});',
      'await zendesk.tickets\n  .updateMany(items);',
      '// ctx.zendesk.tickets.update(2, {}) in a comment',
      'await ctx.zendesk.tickets.show(3);',
    ].join('\n');
    expect([...withoutComments(sample).matchAll(TICKET_UPDATE)].map((m) => m[1])).toEqual([
      'update',
      'updateMany',
    ]);
  });
});
