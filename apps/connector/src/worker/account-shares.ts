// Jobs running in this process per queue and account: a fetch's share is counted here before
// concurrent fetches commit, so two loops that fetched for one account at once cannot both run
// past its share.
export class AccountShares {
  private readonly running = new Map<string, number>();

  constructor(private readonly limit: number) {}

  /** Counts one more run of `share`; false (nothing counted) when a limited share is full. */
  take(share: string, limited: boolean): boolean {
    const mine = this.running.get(share) ?? 0;
    if (limited && mine >= this.limit) return false;
    this.running.set(share, mine + 1);
    return true;
  }

  release(share: string): void {
    const left = (this.running.get(share) ?? 1) - 1;
    if (left > 0) this.running.set(share, left);
    else this.running.delete(share);
  }
}
