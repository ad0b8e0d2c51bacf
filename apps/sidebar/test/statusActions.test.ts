// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INCIDENT_STATUSES } from '../src/app/api/incidentTypes';
import { ACTOR_HUES, planForStatus } from '../src/app/lib/statusActions';

describe('planForStatus', () => {
  it.each([
    ['pending_review', 'in_progress', null, ['takedown', 'monitor', 'safe']],
    ['case_building', 'in_progress', null, ['monitor', 'safe']],
    ['approval_required', 'needs_you', 'approve', ['monitor', 'safe']],
    ['takedown_ready', 'in_progress', null, []],
    ['pre_weaponised', 'in_progress', null, ['takedown', 'safe']],
    ['takedown_in_progress', 'in_progress', null, []],
    ['takedown_success', 'done', null, []],
    ['takedown_attempt_failed', 'failed', null, ['takedown', 'monitor', 'safe']],
    ['blocklisted', 'done', null, ['takedown', 'safe']],
    ['action_required', 'needs_you', null, ['monitor', 'safe']],
    ['closed', 'closed', null, []],
  ])('%s: actor %s, primary %s, more %j', (status, actor, primary, more) => {
    expect(planForStatus(status)).toEqual({ known: true, actor, primary, more });
  });

  it('covers every status of the spec', () => {
    for (const status of INCIDENT_STATUSES) expect(planForStatus(status).known).toBe(true);
  });

  it('offers nothing for a status it does not know', () => {
    expect(planForStatus('very_new_status')).toEqual({
      known: false,
      actor: 'closed',
      primary: null,
      more: [],
    });
  });

  it('never offers a takedown on a finished incident, nor monitoring while monitoring', () => {
    for (const status of ['takedown_success', 'closed', 'takedown_in_progress'])
      expect(planForStatus(status).more).not.toContain('takedown');
    expect(planForStatus('pre_weaponised').more).not.toContain('monitor');
  });

  it('never lists the primary action again under more actions', () => {
    for (const status of INCIDENT_STATUSES) {
      const plan = planForStatus(status);
      if (plan.primary) expect(plan.more).not.toContain(plan.primary);
    }
  });

  it('gives the five actors five different colours', () => {
    expect(new Set(Object.values(ACTOR_HUES)).size).toBe(5);
  });
});
