import type { ZendeskSandbox } from './server';

/** The global OAuth client registered by `npm run sandbox:zendesk`, for local use only. */
export const DEMO_GLOBAL_CLIENT = {
  identifier: 'incident_desk_local',
  secret: 'incident-desk-local-secret',
  name: 'incident-desk (local)',
};

export interface DemoSeed {
  subdomain: string;
  adminId: number;
  agentIds: [number, number];
  endUserId: number;
  threatFieldId: number;
  incidentFieldId: number;
  statusFieldId: number;
  ticketIds: number[];
}

/**
 * The connector's Incident Status drop-down as its setup creates it (a connector test keeps the two
 * in step): one option per incident status, named as the sidebar names it.
 */
export const DEMO_STATUS_FIELD_OPTIONS: readonly { name: string; value: string }[] = [
  ['pending_review', 'Pending review'],
  ['case_building', 'Case building'],
  ['approval_required', 'Approval required'],
  ['takedown_ready', 'Takedown ready'],
  ['pre_weaponised', 'Monitoring'],
  ['takedown_in_progress', 'Takedown in progress'],
  ['takedown_success', 'Taken down'],
  ['takedown_attempt_failed', 'Takedown failed'],
  ['blocklisted', 'Blocklisted'],
  ['action_required', 'Action required'],
  ['closed', 'Closed'],
].map(([status, name]) => ({ name: name!, value: `incident_status_${status!}` }));

/**
 * Account `demo`: an admin, two agents, an end user, the connector's three fields (Incident Status
 * a drop-down; each described with setup's mark "(incident-desk)", as setup made them) and a few
 * tickets.
 */
export function seedDemo(sandbox: ZendeskSandbox, subdomain = 'demo'): DemoSeed {
  const account = sandbox.createAccount(subdomain);
  const { state, tickets } = sandbox;
  const admin = state.createUser(account, {
    name: 'Ada Admin',
    email: `admin@${subdomain}.example`,
    role: 'admin',
  });
  const agentOne = state.createUser(account, {
    name: 'Alex Agent',
    email: `alex@${subdomain}.example`,
    role: 'agent',
  });
  const agentTwo = state.createUser(account, {
    name: 'Bea Agent',
    email: `bea@${subdomain}.example`,
    role: 'agent',
    locale: 'de',
    time_zone: 'Europe/Berlin',
  });
  const endUser = state.createUser(account, {
    name: 'Erin Enduser',
    email: 'erin@customer.example',
    role: 'end-user',
  });
  const now = state.isoNow();
  const field = (
    title: string,
    description: string,
    position: number,
    options: readonly { name: string; value: string }[] = [],
  ) => {
    const record = {
      id: state.id(),
      type: options.length > 0 ? 'tagger' : 'text',
      title,
      description,
      active: true,
      required: false,
      custom_field_options: [] as { id: number; name: string; value: string }[],
      position,
      created_at: now,
      updated_at: now,
    };
    account.ticketFields.set(record.id, record);
    // Option ids are drawn after the tickets, so ticket and user ids stay what they were before
    // the field became a drop-down.
    fillOptions.push(() => {
      record.custom_field_options = options.map((option) => ({ id: state.id(), ...option }));
    });
    return record.id;
  };
  const fillOptions: (() => void)[] = [];
  const threatFieldId = field(
    'Threat URL',
    'URL, domain, email, E.164 phone or IPv4 to report (incident-desk)',
    1,
  );
  const incidentFieldId = field(
    'Incident ID',
    'Incident id returned by the incident service (incident-desk)',
    2,
  );
  const statusFieldId = field(
    'Incident Status',
    'Latest incident status (incident-desk)',
    3,
    DEMO_STATUS_FIELD_OPTIONS,
  );

  const first = tickets.create(
    account,
    {
      subject: 'Phishing site impersonating our login page',
      comment: {
        body: 'Hello,\n\nI received an email linking to https://login-example.phish.test/  which looks like your sign-in page.\n\nThanks,\nErin',
      },
      custom_fields: [{ id: threatFieldId, value: 'https://login-example.phish.test/' }],
      tags: ['phishing'],
    },
    endUser,
    'web',
  );
  tickets.update(
    account,
    first.ticket.id,
    {
      assignee_id: agentOne.id,
      comment: { body: 'Looking into it; checking the domain now.', public: false },
    },
    agentOne,
    'web',
  );
  const second = tickets.create(
    account,
    {
      subject: 'Fake support phone number',
      comment: { body: 'Someone is advertising +15555550123 as your support line.' },
    },
    endUser,
    'web',
  );
  tickets.update(
    account,
    second.ticket.id,
    { comment: { body: 'Thanks for the report, we will follow up.', public: true } },
    agentTwo,
    'web',
  );
  const third = tickets.create(
    account,
    { subject: 'Question about my invoice', comment: { body: 'Where can I download my invoice?' } },
    endUser,
    'web',
  );
  for (const fill of fillOptions) fill();
  return {
    subdomain,
    adminId: admin.id,
    agentIds: [agentOne.id, agentTwo.id],
    endUserId: endUser.id,
    threatFieldId,
    incidentFieldId,
    statusFieldId,
    ticketIds: [first.ticket.id, second.ticket.id, third.ticket.id],
  };
}
