// A receipt deduplicates its delivery for good. When the work a delivery asked for ended having
// changed nothing anywhere (a report refused before anything was created), the receipt is moved
// aside: the row stays, under `<key>:released:<receipt id>`, and the next delivery with the same
// key (the agent adding the submit tag again) is accepted as a new request.
import type { TDatabase } from '@incident-desk/db';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Moves the receipt aside; false when there is no such receipt or it was released already. */
export async function releaseReceipt(db: TDatabase, receiptId: string): Promise<boolean> {
  if (!UUID.test(receiptId)) return false;
  const released = await db.prisma.$executeRaw`
    UPDATE webhook_receipt
    SET dedupe_key = dedupe_key || ':released:' || id::text
    WHERE id = ${receiptId}::uuid AND dedupe_key NOT LIKE ${'%:released:%'}`;
  return released > 0;
}
