import { getContext, setContext } from 'svelte';
import type { Gateway } from './ports';
import type { Workspace } from '../features/projects/workspace.svelte';
import type { TerminalHub } from '../features/terminals/terminal-hub.svelte';
import type { Workbench } from '../features/workbench/workbench.svelte';

/** What the composition root (`main.ts`, or a test) hands to the component tree. */
export interface Services {
  gateway: Gateway;
  workspace: Workspace;
  terminals: TerminalHub;
  /** Preferences, palette, maximised cells, find bars, and the dispatcher of named commands. */
  workbench: Workbench;
}

const KEY = Symbol('idea-services');

export function provideServices(services: Services): void {
  setContext(KEY, services);
}

export function useServices(): Services {
  const services = getContext<Services | undefined>(KEY);
  if (!services) throw new Error('IdeA services missing: wrap the tree with provideServices()');
  return services;
}

/** Context map for `render(Component, { context })` in component tests. */
export function servicesContext(services: Services): Map<symbol, Services> {
  return new Map([[KEY, services]]);
}
