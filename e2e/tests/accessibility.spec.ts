// axe-core on the sidebar as an agent meets it: a linked incident waiting for
// approval, its confirmation dialog, the details opened, and a ticket not reported yet; at the
// default width and in a 320 px apps panel.
import { expect, test } from '@playwright/test';
import { expectAccessible } from './support/accessibility';
import { advanceIncident } from './support/incident-sandbox';
import {
  expandSection,
  linkedTicket,
  openSidebar,
  setPanelWidth,
  startAction,
} from './support/scenario';
import { createTicket } from './support/zendesk-sandbox';

const SIDEBAR = '#zaf-app-frame';

for (const panel of [undefined, 320]) {
  test(`the sidebar has no serious accessibility violation (${panel ? `${panel} px panel` : 'default panel'})`, async ({
    page,
  }) => {
    const width = panel ?? 'default';
    const { ticketId, incidentId } = await linkedTicket(
      'Phishing kit on a lookalike domain',
      `https://a11y-${width}.lookalike.example/login`,
    );
    await advanceIncident(incidentId, 'case_building', 'Evidence collected');
    await advanceIncident(incidentId, 'approval_required', 'Ready for takedown');
    const frame = await openSidebar(page, ticketId);
    if (panel) await setPanelWidth(page, panel);
    await expect(frame.getByTestId('status-card')).toContainText('Approval required');
    await expectAccessible(page, 'the status card', SIDEBAR);

    await expandSection(frame, 'History');
    await expectAccessible(page, 'the history opened', SIDEBAR);

    await startAction(frame, 'Approve takedown');
    await expect(frame.getByRole('dialog')).toBeVisible();
    await expectAccessible(page, 'the approval dialog', SIDEBAR);
    await page.keyboard.press('Escape');

    // a Threat field and more threats in the conversation: the card's choice of threat
    const fresh = await createTicket(
      'Customer forwarded a suspicious link',
      `https://a11y-fresh-${width}.example/verify`,
      `It also named a11y-other-${width}.example and +14155550123.`,
    );
    await page.goto(`/agent/tickets/${fresh}`);
    if (panel) await setPanelWidth(page, panel);
    await expect(page.frameLocator(SIDEBAR).getByRole('radio')).toHaveCount(3);
    await expectAccessible(page, 'a ticket not reported yet', SIDEBAR);
  });
}
