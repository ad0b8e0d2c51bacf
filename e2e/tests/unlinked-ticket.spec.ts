import { expect, test, type FrameLocator, type Page } from '@playwright/test';
import { clearFault, getIncident, injectFault } from './support/incident-sandbox';
import { expectNarrowState } from './support/narrow-state';
import { keepScreenshot, pressDialogButton } from './support/scenario';
import {
  clearZendeskFault,
  createTicket,
  incidentIdOf,
  injectZendeskFault,
  ticketState,
  updateTicket,
} from './support/zendesk-sandbox';

/** The workspace for a ticket whose sidebar shows the panel `testId` (not an incident yet). */
async function openPanel(page: Page, ticketId: number, testId: string): Promise<FrameLocator> {
  await page.goto(`/agent/tickets/${ticketId}`);
  const frame = page.frameLocator('#zaf-app-frame');
  await expect(frame.getByTestId(testId)).toBeVisible();
  return frame;
}

async function linkedIncidentId(ticketId: number): Promise<string> {
  let incidentId: string | null = null;
  await expect
    .poll(async () => (incidentId = await incidentIdOf(ticketId)), {
      message: `the connector links ticket ${ticketId}`,
      timeout: 30_000,
    })
    .toBeTruthy();
  return incidentId!;
}

// Either report opens the incident in pending_review; the mode is what the service was asked for.
const reports = [
  {
    mode: 'takedown',
    button: 'Report for takedown',
    feedback: 'Reported for takedown. The incident will appear here shortly.',
    requestedAction: 'takedown',
    requested: 'Takedown requested',
    history: 'Incident reported for takedown',
  },
  {
    mode: 'monitoring',
    button: 'Report for monitoring',
    feedback: 'Reported with a request for monitoring. The incident will appear here shortly.',
    requestedAction: 'monitor',
    requested: 'Monitoring requested',
    history: 'Incident reported for monitoring',
  },
] as const;

for (const report of reports) {
  test(`an unlinked ticket is reported for ${report.mode} from the sidebar and then shows its incident`, async ({
    page,
  }, testInfo) => {
    const host = `unlinked-${report.mode}.report-test.example`;
    const ticketId = await createTicket(
      `Unlinked, report for ${report.mode}`,
      `https://${host}/login`,
    );

    const frame = await openPanel(page, ticketId, 'not-reported');
    const panel = frame.getByTestId('not-reported');
    await expect(panel).toContainText('Not reported yet');
    // The Threat field's value, defanged and never a link.
    await expect(panel).toContainText(`hxxps[:]//${host.replaceAll('.', '[.]')}/login`);
    await expect(panel.locator('a')).toHaveCount(0);
    await expect(panel.getByRole('button', { name: 'Report for takedown' })).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Report for monitoring' })).toBeVisible();
    await keepScreenshot(page, testInfo, `unlinked-before-${report.mode}`);

    // Cancelling reports nothing.
    await panel.getByRole('button', { name: report.button }).click();
    await pressDialogButton(frame, 'Cancel');
    await expect(frame.getByRole('dialog')).toBeHidden();

    const overview = frame.getByTestId('status-card');
    await panel.getByRole('button', { name: report.button }).click();
    await pressDialogButton(frame, 'Report');
    // The message lasts until the worker has linked the ticket, which may be at once.
    await expect(
      frame.getByTestId('threat-feedback').filter({ hasText: report.feedback }).or(overview),
    ).toBeVisible();

    // The worker reports it and writes Incident ID; the field's change event refreshes the view.
    const incidentId = await linkedIncidentId(ticketId);
    await expect(overview).toBeVisible({ timeout: 20_000 });
    await expect(overview).toContainText(incidentId);
    await expect(overview.getByTestId('status')).toContainText('Pending review');
    // what was asked for, until the service acts on it
    await expect(overview.getByTestId('requested')).toContainText(report.requested);
    await expect(frame.getByTestId('history-entry').first()).toContainText(report.history);
    await expect(frame.getByTestId('not-reported')).toHaveCount(0);
    const incident = await getIncident(incidentId);
    expect(incident.status).toBe('pending_review');
    expect(incident.requestedAction).toBe(report.requestedAction);
    expect(incident.subject).toContain(host);
    await keepScreenshot(page, testInfo, `unlinked-after-${report.mode}`);
  });
}

test('a duplicate (409) the service’s search cannot find shows why it was not linked and offers no retry that cannot link', async ({
  page,
}, testInfo) => {
  // The service answers the report with its 409: it already has an incident for the threat. The
  // connector does not link the ticket, tags it incident_unlinked and records the duplicate.
  const fault = await injectFault({
    method: 'POST',
    path: '/v1/incident/tkd',
    kind: 'status',
    status: 409,
    message: 'Conflict: an incident for this threat already exists',
    times: 1,
  });
  try {
    const host = 'duplicate.report-test.example';
    const ticketId = await createTicket('Report of a known threat', `https://${host}/login`);
    await updateTicket(ticketId, { additional_tags: ['incident_submit'] });
    await expect
      .poll(async () => (await ticketState(ticketId)).ticket.tags, {
        message: 'the connector tags the ticket incident_unlinked',
        timeout: 30_000,
      })
      .toContain('incident_unlinked');

    const frame = await openPanel(page, ticketId, 'link-failed');
    const panel = frame.getByTestId('link-failed');
    await expect(panel.getByTestId('unlinked-cause')).toContainText(
      'already has an incident for this threat',
    );
    // a fault played the 409: no incident to follow, so an administrator links it
    await expect(panel.getByTestId('duplicate-explained')).toContainText(
      'an administrator can link this ticket',
    );
    await expect(panel.getByTestId('unlinked-reason')).toHaveCount(0);
    await expect(panel.getByRole('button', { name: 'Retry linking' })).toHaveCount(0);
    await keepScreenshot(page, testInfo, 'link-failed-duplicate');
  } finally {
    await clearFault(fault.id).catch(() => undefined);
  }
});

test('a report whose outcome is unknown (500) shows why it was not linked, and retry linking links it', async ({
  page,
}, testInfo) => {
  // The service fails the first report midway: the connector cannot know whether it acted, so it
  // does not link the ticket, tags it incident_unlinked and records the reason.
  const fault = await injectFault({
    method: 'POST',
    path: '/v1/incident/tkd',
    kind: 'status',
    status: 500,
    message: 'Internal error',
    times: 1,
  });
  try {
    const host = 'retry-link.report-test.example';
    const ticketId = await createTicket('Report that was not linked', `https://${host}/login`);
    await updateTicket(ticketId, { additional_tags: ['incident_submit'] });
    await expect
      .poll(async () => (await ticketState(ticketId)).ticket.tags, {
        message: 'the connector tags the ticket incident_unlinked',
        timeout: 30_000,
      })
      .toContain('incident_unlinked');
    expect(await incidentIdOf(ticketId)).toBeFalsy();

    const frame = await openPanel(page, ticketId, 'link-failed');
    const panel = frame.getByTestId('link-failed');
    await expect(panel).toContainText('Linking failed');
    await expect(panel.getByTestId('unlinked-reason')).toContainText('500');
    await expect(panel).toContainText(`hxxps[:]//${host.replaceAll('.', '[.]')}/login`);
    await keepScreenshot(page, testInfo, 'link-failed-before');

    const card = frame.getByTestId('status-card');
    await panel.getByRole('button', { name: 'Retry linking' }).click();
    // a queued report is news, never a success, until the incident is there
    await expect(
      frame
        .getByTestId('action-feedback')
        .filter({ hasText: 'The report was queued again' })
        .or(card),
    ).toBeVisible();

    const incidentId = await linkedIncidentId(ticketId);
    await expect(card).toBeVisible({ timeout: 20_000 });
    await expect(card).toContainText(incidentId);
    await expect(frame.getByTestId('link-failed')).toHaveCount(0);
    const { ticket } = await ticketState(ticketId);
    expect(ticket.tags).not.toContain('incident_unlinked');
    expect((await getIncident(incidentId)).subject).toContain(host);
    await keepScreenshot(page, testInfo, 'link-failed-after');
  } finally {
    await clearFault(fault.id).catch(() => undefined);
  }
});

test('a report while Zendesk refuses ticket updates (500) names Zendesk as the failing system, at 320 px', async ({
  page,
}) => {
  // a threat found in the conversation: reporting it first writes it to the Threat field
  const ticketId = await createTicket(
    'Unlinked, Zendesk refuses the update',
    undefined,
    'This mail sent me to hxxps[:]//zendesk-refuses[.]report-test[.]example/login, is it you?',
  );
  const frame = await openPanel(page, ticketId, 'not-reported');
  const panel = frame.getByTestId('not-reported');
  const fault = await injectZendeskFault({
    method: 'PUT',
    path: '/api/v2/tickets/*',
    kind: 'error',
    status: 500,
  });
  try {
    await panel.getByRole('button', { name: 'Report for takedown' }).click();
    await pressDialogButton(frame, 'Report');
    const feedback = frame.getByTestId('threat-feedback');
    // the connector's own retries of Zendesk's 500 come first, hence the longer wait
    await expect(feedback).toContainText('Zendesk did not accept the ticket update', {
      timeout: 45_000,
    });
    await expect(feedback).toContainText('nothing was reported to the incident service');
    await expect(feedback).not.toContainText('incident service is unavailable');
    expect(await incidentIdOf(ticketId)).toBeNull();
    await expectNarrowState(page, {
      name: 'zendesk-write-failed',
      // the failure and its retry come first; the report buttons stay below the threat
      firstScreen: [
        frame.getByRole('heading', { name: 'Not reported yet' }),
        feedback,
        feedback.getByRole('button', { name: 'Retry' }),
      ],
    });
  } finally {
    await clearZendeskFault(fault.id);
  }
});
