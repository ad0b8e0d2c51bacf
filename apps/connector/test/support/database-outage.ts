// A database that goes away for a moment: the named writes fail as Prisma fails when PostgreSQL is
// restarting (P1001, the adapter's DatabaseNotReachable), a given number of times each, before
// they reach the database. Everything else goes through.
import { Prisma, type TDatabase } from '@incident-desk/db';

export interface OutageRule {
  model: string;
  operation: string;
  /** How many of the matching calls fail. */
  times: number;
}

export function withOutage(
  db: TDatabase,
  rules: OutageRule[],
): TDatabase & { failed: () => number } {
  let failed = 0;
  const pending = rules.map((rule) => ({ ...rule }));
  const prisma = db.prisma.$extends({
    query: {
      $allModels: {
        async $allOperations({ model, operation, args, query }) {
          const rule = pending.find(
            (r) => r.model === model && r.operation === operation && r.times > 0,
          );
          if (rule) {
            rule.times -= 1;
            failed += 1;
            throw unreachable();
          }
          return query(args);
        },
      },
    },
  });
  return { ...db, prisma: prisma as unknown as TDatabase['prisma'], failed: () => failed };
}

function unreachable(): Error {
  return new Prisma.PrismaClientKnownRequestError("Can't reach database server at 127.0.0.1:5432", {
    code: 'P1001',
    clientVersion: Prisma.prismaVersion.client,
    meta: {
      driverAdapterError: {
        name: 'DriverAdapterError',
        cause: { kind: 'DatabaseNotReachable', host: '127.0.0.1', port: 5432 },
      },
    },
  });
}
