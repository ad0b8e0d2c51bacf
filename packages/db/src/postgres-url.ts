export type PostgresTarget = {
  /** The URL for `pg` and pg-boss, without Prisma's `schema` parameter. */
  connectionString: string;
  schema: string;
};

// Lower-case identifiers only: they need no quoting anywhere, including in a `-c search_path=` option.
const schemaName = /^[a-z_][a-z0-9_]{0,62}$/;

/** Splits Prisma's `?schema=` parameter off a PostgreSQL URL; an explicit `schema` wins. */
export function parsePostgresUrl(databaseUrl: string, schema?: string): PostgresTarget {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    throw new Error(
      'DATABASE_URL is not a valid URL (expected postgres://user:password@host:port/database)',
    );
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new Error(
      `DATABASE_URL must start with postgres:// or postgresql://, not ${url.protocol}//`,
    );
  }
  const fromUrl = url.searchParams.get('schema') ?? undefined;
  url.searchParams.delete('schema');
  const chosen = schema ?? fromUrl ?? 'public';
  if (!schemaName.test(chosen)) {
    throw new Error(
      `schema "${chosen}" is not supported: use lower-case letters, digits and underscores`,
    );
  }
  return { connectionString: url.toString(), schema: chosen };
}
