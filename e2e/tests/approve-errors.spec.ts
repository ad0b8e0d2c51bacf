import { expect, test, type FrameLocator } from '@playwright/test';
import { advanceIncident, clearFault, getIncident, injectFault } from './support/incident-sandbox';
import {
  expandSection,
  keepScreenshot,
  linkedTicket,
  openSidebar,
  runConfirmedAction,
} from './support/scenario';

const APPROVE_PATH = '/v1/incident/:id/approve-takedown';

async function incidentAwaitingApproval(subject: string, threat: string) {
  const linked = await linkedTicket(subject, threat);
  await advanceIncident(linked.incidentId, 'case_building');
  await advanceIncident(linked.incidentId, 'approval_required');
  return linked;
}

/** The view after a failed approval: still the incident, still awaiting approval, still working. */
async function expectViewStillUsable(frame: FrameLocator) {
  await expect(frame.getByTestId('status')).toContainText('Approval required');
  await expect(frame.getByRole('button', { name: /^Approve takedown/ })).toBeEnabled();
  await frame.getByRole('button', { name: 'Refresh', exact: true }).click();
  await expect(frame.getByRole('button', { name: 'Refresh', exact: true })).toBeEnabled();
  await expect(frame.getByTestId('status-card')).toBeVisible();
  await expandSection(frame, 'History');
  await expect(frame.getByTestId('history-entry').first()).toBeVisible();
}

test('a 403 from the service (no credits) is explained and the view stays usable', async ({
  page,
}, testInfo) => {
  const { ticketId, incidentId } = await incidentAwaitingApproval(
    'Approval without credits',
    'https://no-credits.approve-error.example/login',
  );
  // The service refuses approvals for want of credits until the fault is cleared.
  const fault = await injectFault({
    method: 'POST',
    path: APPROVE_PATH,
    kind: 'status',
    status: 403,
    message: 'Forbidden: insufficient or expired takedown credits',
  });
  try {
    const frame = await openSidebar(page, ticketId);
    await runConfirmedAction(frame, 'Approve takedown', 'Approve');

    const feedback = frame.getByTestId('action-feedback');
    await expect(feedback.getByRole('alert')).toContainText('The takedown was not approved');
    await expect(feedback).toContainText('There are no takedown credits left');
    // Retrying cannot help without credits: no retry is offered, only dismissing the message.
    await expect(feedback.getByRole('button', { name: 'Retry' })).toHaveCount(0);
    expect((await getIncident(incidentId)).status).toBe('approval_required');
    await expectViewStillUsable(frame);
    await keepScreenshot(page, testInfo, 'approve-no-credits');

    await feedback.getByRole('button', { name: 'Dismiss' }).click();
    await expect(frame.getByRole('alert')).toHaveCount(0);

    // Credits added: the same view approves.
    await clearFault(fault.id);
    await runConfirmedAction(frame, 'Approve takedown', 'Approve');
    await expect(frame.getByTestId('action-feedback')).toContainText('Takedown approved.');
    await expect(frame.getByTestId('status')).toContainText('Takedown ready');
    expect((await getIncident(incidentId)).status).toBe('takedown_ready');
  } finally {
    await clearFault(fault.id).catch(() => undefined);
  }
});

test('a 503 from the service (retry later) is explained and its retry approves once the service is back', async ({
  page,
}, testInfo) => {
  const { ticketId, incidentId } = await incidentAwaitingApproval(
    'Approval while the service is down',
    'https://retry-later.approve-error.example/login',
  );
  const fault = await injectFault({
    method: 'POST',
    path: APPROVE_PATH,
    kind: 'status',
    status: 503,
    message: 'Service temporarily unavailable; retry later',
  });
  try {
    const frame = await openSidebar(page, ticketId);
    await runConfirmedAction(frame, 'Approve takedown', 'Approve');

    const feedback = frame.getByTestId('action-feedback');
    // The connector's own retries of the 503 come first, hence the longer wait.
    await expect(feedback).toContainText(
      'Approval is temporarily unavailable. Try again in a moment.',
      { timeout: 30_000 },
    );
    await expect(feedback.getByRole('alert')).toContainText('The takedown was not approved');
    expect((await getIncident(incidentId)).status).toBe('approval_required');
    await expectViewStillUsable(frame);
    await keepScreenshot(page, testInfo, 'approve-retry-later');

    // The service is back: the message's own retry approves.
    await clearFault(fault.id);
    await feedback.getByRole('button', { name: 'Retry' }).click();
    await expect(frame.getByTestId('action-feedback')).toContainText('Takedown approved.');
    await expect(frame.getByTestId('status')).toContainText('Takedown ready');
    const incident = await getIncident(incidentId);
    expect(incident.status).toBe('takedown_ready');
    // One approval, not one per attempt.
    expect(
      incident.history.filter((h) => h.message.startsWith('Takedown approved by')),
    ).toHaveLength(1);
  } finally {
    await clearFault(fault.id).catch(() => undefined);
  }
});
