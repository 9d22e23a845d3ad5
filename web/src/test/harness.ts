import { MockGateway, type MockOptions } from '../lib/adapters/mock';
import type { ProjectDTO } from '../lib/ports';
import { servicesContext, type Services } from '../lib/services';
import { Workspace } from '../features/projects/workspace.svelte';
import { TerminalHub } from '../features/terminals/terminal-hub.svelte';

export interface Harness extends Services {
  gateway: MockGateway;
  context: Map<symbol, Services>;
}

/** Services wired like `main.ts` does, over the in-memory gateway. */
export function harness(options: MockOptions = {}): Harness {
  const gateway = new MockGateway(options);
  const workspace = new Workspace(gateway);
  const terminals = new TerminalHub(gateway, {
    report: (error, context) => workspace.report(error, context, { kind: 'terminal' }),
    resolved: () => workspace.resolved('terminal'),
  });
  gateway.onPush((batch) => {
    terminals.handlePush(batch);
    workspace.handlePush(batch);
  });
  const services = { gateway, workspace, terminals };
  return { ...services, context: servicesContext(services) };
}

/** A project as the backend would return it, with a one-leaf layout unless given. */
export function project(root: string, overrides: Partial<ProjectDTO> = {}): ProjectDTO {
  return {
    root,
    name: root.split('/').pop() ?? root,
    agents: [],
    problems: [],
    liveSessions: {},
    layouts: {
      version: 1,
      activeId: 'L1',
      layouts: [{ id: 'L1', name: 'Default', kind: 'terminal', tree: { root: { type: 'leaf', node: { id: 'n1' } } } }],
    },
    ...overrides,
  };
}

/** Lets pending promise chains settle. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}
