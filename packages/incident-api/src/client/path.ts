import { RequestValidationError } from '../errors';

/**
 * Tagged template for request paths: every interpolated value is one percent-encoded segment,
 * because ids and subjects are opaque (a subject may be a URL with slashes, `?` or `#`).
 * `path\`/v1/incident/${id}/snapshots\``
 */
export function path(strings: TemplateStringsArray, ...segments: string[]): string {
  return strings.reduce((result, literal, index) => {
    if (index >= segments.length) return result + literal;
    return result + literal + encodeSegment(segments[index] as string);
  }, '');
}

function encodeSegment(segment: string): string {
  // "." and ".." would be resolved away by URL parsing even when percent-encoded.
  if (typeof segment !== 'string' || segment === '' || segment === '.' || segment === '..') {
    throw new RequestValidationError(
      [
        {
          code: 'custom',
          path: ['id'],
          message: 'a path identifier must be a non-empty string other than "." or ".."',
          input: segment,
        },
      ],
      'path',
    );
  }
  return encodeURIComponent(segment);
}
