import type { ClientRecord } from '../state/model';

/** Whether the client may approve a takedown now: null means the client does not use credits. */
export function hasTakedownCredit(client: ClientRecord, nowMs: number): boolean {
  if (client.credits === null || client.credits === 'unlimited') return true;
  if (client.creditsExpireAt !== null && Date.parse(client.creditsExpireAt) <= nowMs) return false;
  return client.credits > 0;
}

export function consumeTakedownCredit(client: ClientRecord): void {
  if (client.approvalConsumesCredit && typeof client.credits === 'number') client.credits -= 1;
}
