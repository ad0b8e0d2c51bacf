/**
 * True for a unique-constraint violation: Prisma's P2002 (both adapters) or SQLSTATE 23505 from
 * raw SQL through pg or PGlite. Branches on the code only: `meta` differs between the adapters.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  return error.code === 'P2002' || error.code === '23505';
}
