// What the admin API is built with: shared by its router and the route groups it mounts.
import type { PgBoss, TDatabase } from '@incident-desk/db';
import type {
  DatabaseAccountContextProvider,
  TZendeskOAuthConfig,
  ZendeskMarketplaceIdentity,
} from '../accounts';
import type { Inbox } from '../ingest';
import type { Logger } from '../log';
import type { SecretBox } from '../secrets';
import type { WriteHealthReader } from '../sync';
import type { CookiePolicy } from './admin-cookie';
import type { AdminRoleChecker } from './admin-role-check';

export interface AdminApiOptions {
  db: TDatabase;
  boss: PgBoss;
  inbox: Inbox;
  secretBox: SecretBox;
  accounts: DatabaseAccountContextProvider;
  oauth: TZendeskOAuthConfig;
  cookies: CookiePolicy;
  /** The connector's public origin, e.g. https://connector.example.com. */
  publicOrigin: string;
  /** Where Zendesk and the incident service reach the connector (setup's receiver addresses). */
  connectorUrl: string;
  marketplace?: ZendeskMarketplaceIdentity | undefined;
  logger: Logger;
  /** The incident service new connections use (the admin page does not choose hosts). */
  incidentApiUrl?: string;
  /** An incident's page for people, `{incidentId}` in it; without it incidents are not linked. */
  incidentConsoleUrl?: string;
  now: () => number;
  /** The account's ticket-write health, shown in its overview. */
  ticketWrites: Pick<WriteHealthReader, 'account'>;
  /** Re-checks the user's Zendesk role (default: GET users/{id} with the account's token). */
  checkRole?: AdminRoleChecker;
}
