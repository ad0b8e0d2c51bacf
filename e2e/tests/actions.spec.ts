import { expect, test } from '@playwright/test';
import { getIncident } from './support/incident-sandbox';
import {
  keepScreenshot,
  linkedTicket,
  openSidebar,
  pressDialogButton,
  runConfirmedAction,
  startAction,
} from './support/scenario';

// Each action starts from a freshly reported incident (pending_review), so each is seen to change it;
// reported for the other mode, as the card does not offer again what the report asked for.
const cases = [
  {
    name: 'request takedown',
    submitTag: 'incident_submit_monitor',
    button: 'Request takedown',
    confirm: 'Request takedown',
    feedback: 'Takedown requested.',
    status: 'case_building',
    label: 'Case building',
    history: 'Takedown requested by client',
  },
  {
    name: 'move to monitoring',
    submitTag: 'incident_submit',
    button: 'Move to monitoring',
    confirm: 'Move to monitoring',
    feedback: 'Monitoring requested.',
    status: 'pre_weaponised',
    label: 'Monitoring',
    history: 'Monitoring requested by client',
  },
  {
    name: 'mark safe',
    submitTag: 'incident_submit',
    button: 'Mark safe',
    confirm: 'Mark safe',
    feedback: 'Marked as safe.',
    status: 'closed',
    // an agent marked it safe: the card says so, not only "Closed"
    label: 'Marked safe',
    history: 'Marked safe by client',
  },
] as const;

for (const action of cases) {
  test(`${action.name}, once confirmed, calls the incident service`, async ({ page }, testInfo) => {
    const slug = action.name.replaceAll(' ', '-');
    const { ticketId, incidentId } = await linkedTicket(
      `Action: ${action.name}`,
      `https://${slug}.action-test.example/login`,
      action.submitTag,
    );
    const before = await getIncident(incidentId);
    expect(before.status).toBe('pending_review');

    const frame = await openSidebar(page, ticketId);
    // Cancelling the confirmation leaves the incident alone.
    await startAction(frame, action.button);
    await pressDialogButton(frame, 'Cancel');
    await expect(frame.getByRole('dialog')).toBeHidden();
    expect((await getIncident(incidentId)).history).toHaveLength(before.history.length);

    await runConfirmedAction(frame, action.button, action.confirm);
    await expect(frame.getByTestId('action-feedback')).toContainText(action.feedback);
    await expect(frame.getByTestId('status')).toContainText(action.label);

    const after = await getIncident(incidentId);
    expect(after.status).toBe(action.status);
    expect(after.history.map((h) => h.message)).toContain(action.history);
    await keepScreenshot(page, testInfo, slug);
  });
}
