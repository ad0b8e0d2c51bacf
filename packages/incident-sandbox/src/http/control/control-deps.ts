import type { SandboxContext } from '../context';
import type { FaultInjector } from '../faults';

export interface ControlDeps extends SandboxContext {
  faults: FaultInjector;
  reset: (seed: boolean) => void;
}
