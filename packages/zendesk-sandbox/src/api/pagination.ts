import type { Request } from 'express';
import { badRequest } from './errors';

export interface Page<T> {
  items: T[];
  /** Keys to merge into the response body next to the items. */
  envelope: Record<string, unknown>;
}

function encodeCursor(index: number): string {
  return Buffer.from(JSON.stringify({ o: index })).toString('base64url');
}

function decodeCursor(cursor: string): number {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown };
    if (typeof parsed.o === 'number' && Number.isInteger(parsed.o) && parsed.o >= 0)
      return parsed.o;
  } catch {
    // fall through to the error
  }
  throw badRequest('Invalid cursor');
}

function query(req: Request, key: string): string | undefined {
  const value = (req.query as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : undefined;
}

function withParams(fullUrl: string, params: Record<string, string | undefined>): string {
  const url = new URL(fullUrl);
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) url.searchParams.delete(key);
    else url.searchParams.set(key, value);
  }
  return url.toString();
}

/**
 * Cursor pagination when the request names `page[size]` (Zendesk's preferred style), offset pagination
 * (`page`, `per_page`, `next_page`, `count`) otherwise. `selfUrl` is the public URL of this request.
 */
export function paginate<T>(req: Request, items: T[], selfUrl: string): Page<T> {
  const size = query(req, 'page[size]');
  if (size !== undefined) {
    const pageSize = Number(size);
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100)
      throw badRequest('page[size] must be between 1 and 100');
    const after = query(req, 'page[after]');
    const before = query(req, 'page[before]');
    let start = 0;
    if (after !== undefined) start = decodeCursor(after) + 1;
    else if (before !== undefined) start = Math.max(0, decodeCursor(before) - pageSize);
    const end =
      before !== undefined && after === undefined
        ? Math.min(decodeCursor(before), start + pageSize)
        : start + pageSize;
    const slice = items.slice(start, end);
    const hasMore = end < items.length;
    const afterCursor = slice.length > 0 ? encodeCursor(start + slice.length - 1) : null;
    const beforeCursor = slice.length > 0 ? encodeCursor(start) : null;
    return {
      items: slice,
      envelope: {
        meta: { has_more: hasMore, after_cursor: afterCursor, before_cursor: beforeCursor },
        links: {
          next:
            hasMore && afterCursor
              ? withParams(selfUrl, { 'page[after]': afterCursor, 'page[before]': undefined })
              : null,
          prev:
            start > 0 && beforeCursor
              ? withParams(selfUrl, { 'page[before]': beforeCursor, 'page[after]': undefined })
              : null,
        },
      },
    };
  }
  const perPage = Math.min(100, Math.max(1, Number(query(req, 'per_page') ?? 100) || 100));
  const page = Math.max(1, Number(query(req, 'page') ?? 1) || 1);
  const start = (page - 1) * perPage;
  const slice = items.slice(start, start + perPage);
  return {
    items: slice,
    envelope: {
      next_page:
        start + perPage < items.length
          ? withParams(selfUrl, { page: String(page + 1), per_page: String(perPage) })
          : null,
      previous_page:
        page > 1
          ? withParams(selfUrl, { page: String(page - 1), per_page: String(perPage) })
          : null,
      count: items.length,
    },
  };
}
