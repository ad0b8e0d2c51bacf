export { openDatabase, type OpenDatabaseOptions } from './open-database';
export type { TDatabase, TPgliteDatabase, TPostgresDatabase } from './database';
export { DataDirectoryLockedError, lockDataDirectory } from './data-directory-lock';
export { isMadeDataDir, makingDirOf } from './make-pglite-dir';
export { withStatementsFirst } from './statements-first';
export { MigrationError } from './migrations/apply-migrations';
export { readMigrations, type MigrationFile } from './migrations/read-migrations';
export { createJobQueue, defaultJobQueueSchema, type TJobQueueOptions } from './job-queue';
export { isUniqueViolation } from './is-unique-violation';
export { isDatabaseUnavailable } from './is-database-unavailable';
export { parsePostgresUrl } from './postgres-url';
export {
  baseDir,
  buildDir,
  defaultPgliteDir,
  migrationsDir,
  prismaDir,
  repoRoot,
  schemaPath,
} from './paths';
export type {
  PgBoss,
  Job,
  JobInsert,
  JobWithMetadata,
  SendOptions,
  WorkOptions,
  QueueOptions,
} from 'pg-boss';
export * from './generated/client';
export type { TLockOutcome } from './pooled-advisory-lock';
export {
  capabilitiesOf,
  querySql,
  withAdvisoryLock,
  withSqlTransaction,
  type SqlExecutor,
  type DatabaseCapabilities,
} from './capabilities';
