import { MockGateway, type MockOptions } from '../lib/adapters/mock';
import { render, screen } from '@testing-library/svelte';
import App from '../App.svelte';
import type { AgentDTO, LayoutDoc, LayoutNode, ProjectDTO } from '../lib/ports';
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

/** A `layouts.json` document whose one layout (L1, active) has the tree `root`. */
export function layoutDoc(root: LayoutNode): LayoutDoc {
  return { version: 1, activeId: 'L1', layouts: [{ id: 'L1', name: 'Default', kind: 'terminal', tree: { root } }] };
}

/** A split of empty leaves with these ids, side by side (`row`) or stacked (`column`). */
export function splitOf(ids: string[], direction: 'row' | 'column' = 'row'): LayoutNode {
  const children = ids.map((id) => ({ node: { type: 'leaf' as const, node: { id } }, weight: 1 }));
  return { type: 'split', node: { id: 'sp', direction, children } };
}

/** A project as the backend would return it, with a one-leaf layout unless given. */
export function project(root: string, overrides: Partial<ProjectDTO> = {}): ProjectDTO {
  return {
    root,
    name: root.split('/').pop() ?? root,
    agents: [],
    problems: [],
    sessions: [],
    layouts: layoutDoc({ type: 'leaf', node: { id: 'n1' } }),
    ...overrides,
  };
}

/** An agent as the backend lists it (stopped, not synchronized, no skills, empty mailbox). */
export function agent(agentId: string, name: string, profileId = 'claude-code'): AgentDTO {
  return {
    agentId,
    name,
    mdPath: `agents/${name.toLowerCase()}.md`,
    profileId,
    synchronized: false,
    skills: [],
    running: false,
    activity: 'stopped',
    queueDepth: 0,
  };
}

/** Renders the whole app over the harness, starts it and opens `root`; resolves once cells show. */
export async function openProject(h: Harness, root = '/p'): Promise<void> {
  render(App, { props: { services: h }, context: h.context });
  await h.workbench.load();
  await h.workspace.start();
  await h.workspace.open(root);
  await screen.findAllByTestId('cell');
}

/** Lets pending promise chains settle. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}
