import { MockGateway, type MockOptions } from '../lib/adapters/mock';
import type { ProjectDTO } from '../lib/ports';
import { servicesContext, type Services } from '../lib/services';
import { createServices } from '../app/services';

export interface Harness extends Services {
  gateway: MockGateway;
  context: Map<symbol, Services>;
}

/** The window's services (`createServices`, as in `main.ts`) over the in-memory gateway. */
export function harness(options: MockOptions = {}): Harness {
  const gateway = new MockGateway(options);
  const services = { ...createServices(gateway), gateway };
  return { ...services, context: servicesContext(services) };
}

/** A project as the backend would return it, with a one-leaf layout unless given. */
export function project(root: string, overrides: Partial<ProjectDTO> = {}): ProjectDTO {
  return {
    root,
    name: root.split('/').pop() ?? root,
    agents: [],
    problems: [],
    sessions: [],
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
