import type { Gateway } from '../lib/ports';
import type { Services } from '../lib/services';
import { Workspace } from '../features/projects/workspace.svelte';
import { TerminalHub } from '../features/terminals/terminal-hub.svelte';
import { Workbench } from '../features/workbench/workbench.svelte';

/**
 * Builds the window's services over a gateway: the workspace (tabs, banner), the terminal hub
 * (xterm pool; write portals that type the deliveries addressed to this window's view) and the
 * push wiring (terminal output and session events to the hub first, then domain events to the
 * workspace). The one place that wires them: `main.ts` and the test harness both call it.
 */
export function createServices(gateway: Gateway): Services {
  const workspace = new Workspace(gateway);
  const terminals = new TerminalHub(
    gateway,
    {
      report: (error, context) => workspace.report(error, context, { kind: 'terminal' }),
      resolved: () => workspace.resolved('terminal'),
    },
    () => workspace.info?.view ?? null,
  );
  gateway.onPush((batch) => {
    terminals.handlePush(batch);
    workspace.handlePush(batch);
  });
  const workbench = new Workbench(gateway, workspace, terminals);
  return { gateway, workspace, terminals, workbench };
}
