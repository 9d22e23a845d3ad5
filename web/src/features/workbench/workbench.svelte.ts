import { neighbourCell, type CellBox, type Direction } from '../../lib/domain/cell-neighbours';
import { mergeChoices, mergedCell, type MergeSide } from '../../lib/domain/layout-merge';
import { findLeaf } from '../../lib/domain/layout-tree';
import type { Gateway, Settings, SettingsPatch } from '../../lib/ports';
import type { Workspace } from '../projects/workspace.svelte';
import type { TerminalHub } from '../terminals/terminal-hub.svelte';
import type { ProjectTab } from '../projects/project-tab.svelte';
import { COMMANDS, PRESET_OF, isGridCommand, shortcutOf, type CommandId, type GridCommandId } from './commands';

/** Terminal font size of `Ctrl+0`, and the bounds zooming stays in (as the backend's). */
export const DEFAULT_FONT_SIZE = 13;
export const MIN_FONT_SIZE = 6;
export const MAX_FONT_SIZE = 40;

export const DEFAULT_SETTINGS: Settings = {
  terminal: { fontSize: DEFAULT_FONT_SIZE, scrollbackLines: 10_000 },
  ui: { sidePanelWidth: 260, sidePanelCollapsed: false },
};

/** One line of the command palette. */
export interface PaletteEntry {
  /** A `CommandId`, or `agent:<verb>:<agentId>` for an agent of the active project. */
  id: string;
  label: string;
  shortcut: string;
  /** False when it cannot apply now (no project open, no session in the cell…). */
  enabled: boolean;
  /** What an agent entry does (a command runs through `run(id)`). */
  action?: () => void;
}

/**
 * The window's workbench state around the layout: preferences (`settings.*`: terminal font and
 * scrollback, the side panel's width and whether it is collapsed), the command palette, which
 * cell of each project is maximised, which terminal's find bar is open, and the one dispatcher
 * of every named command (keyboard, palette, menus).
 */
export class Workbench {
  #settings = $state.raw<Settings>(DEFAULT_SETTINGS);
  #paletteOpen = $state(false);
  #settingsOpen = $state(false);
  #maximized = $state.raw<Readonly<Record<string, string>>>({});
  #searchSession = $state<string | null>(null);
  /** Bumped by `show-sessions`: the sessions panel scrolls into view and takes the focus. */
  #sessionsRequest = $state(0);
  /** A cell asked (palette, keyboard) to open a shell: it does, at its own size. */
  #shellRequest = $state<string | null>(null);
  #launchRequest = $state<{ nodeId: string; agentId: string } | null>(null);
  /** `new-layout` asked the project's layout bar (`root`) for its name dialog; `n` counts the asks. */
  #newLayoutRequest = $state.raw<{ root: string; n: number } | null>(null);
  /** The project whose agents panel should open its "New agent" form (palette), until it does. */
  #newAgentRequest = $state<string | null>(null);

  #gateway: Gateway;
  #workspace: Workspace;
  #terminals: TerminalHub;

  constructor(gateway: Gateway, workspace: Workspace, terminals: TerminalHub) {
    this.#gateway = gateway;
    this.#workspace = workspace;
    this.#terminals = terminals;
  }

  /** Reads `settings.get` (defaults stay when it fails: the banner says why). */
  async load(): Promise<void> {
    try {
      this.#apply(await this.#gateway.settings.get());
    } catch (error) {
      this.#workspace.report(error, 'Could not read the settings', { kind: 'startup' });
    }
  }

  get settings(): Settings {
    return this.#settings;
  }

  /** Saves a change (`settings.update`); the answer is applied. Failures go to the banner. */
  async update(patch: SettingsPatch): Promise<boolean> {
    try {
      this.#apply(await this.#gateway.settings.update(patch));
      return true;
    } catch (error) {
      this.#workspace.report(error, 'Could not save the settings', { kind: 'startup' });
      return false;
    }
  }

  /** Takes settings the backend answered (the settings dialog saved them itself). */
  adopt(settings: Settings): void {
    this.#apply(settings);
  }

  get settingsOpen(): boolean {
    return this.#settingsOpen;
  }

  openSettings(): void {
    this.#settingsOpen = true;
  }

  closeSettings(): void {
    this.#settingsOpen = false;
    this.returnFocus();
  }

  get paletteOpen(): boolean {
    return this.#paletteOpen;
  }

  openPalette(): void {
    this.#paletteOpen = true;
  }

  /** Escape, a click outside, or before the entry chosen runs (a dialog it opens takes the keyboard after). */
  closePalette(): void {
    this.#paletteOpen = false;
    this.returnFocus();
  }

  /**
   * The keyboard goes back to the active project's focused cell (`ProjectTab.returnFocus`):
   * every dialog, bar and command that leaves it nowhere ends so.
   */
  returnFocus(): void {
    this.#workspace.activeTab?.returnFocus();
  }

  /** The project's maximised cell, if any. */
  maximizedOf(root: string): string | null {
    const nodeId = this.#maximized[root];
    const tab = this.#workspace.tabFor(root);
    return nodeId && tab && findLeaf(tab.layoutRoot, nodeId) ? nodeId : null;
  }

  toggleMaximize(root: string, nodeId: string): void {
    const next = { ...this.#maximized };
    if (next[root] === nodeId) delete next[root];
    else next[root] = nodeId;
    this.#maximized = next;
  }

  /** The session whose terminal shows the find bar. */
  get searchSession(): string | null {
    return this.#searchSession;
  }

  openSearch(sessionId: string): void {
    this.#searchSession = sessionId;
  }

  closeSearch(): void {
    const sessionId = this.#searchSession;
    this.#searchSession = null;
    if (sessionId) this.#terminals.clearSearch(sessionId);
    // The find bar is in the focused cell (its input focused the cell): its terminal takes the keys.
    this.returnFocus();
  }

  get shellRequest(): string | null {
    return this.#shellRequest;
  }

  shellRequestDone(nodeId: string): void {
    if (this.#shellRequest === nodeId) this.#shellRequest = null;
  }

  get sessionsRequest(): number {
    return this.#sessionsRequest;
  }

  /** The last `new-layout` ask: the layout bar of project `root` opens its name dialog. */
  get newLayoutRequest(): { root: string; n: number } | null {
    return this.#newLayoutRequest;
  }

  /** The project root whose agents panel should open "New agent"; the panel calls `newAgentRequestDone`. */
  get newAgentRequest(): string | null {
    return this.#newAgentRequest;
  }

  newAgentRequestDone(root: string): void {
    if (this.#newAgentRequest === root) this.#newAgentRequest = null;
  }

  /** Sets the terminal font size (bounded), saved in settings. */
  async setFontSize(size: number): Promise<void> {
    const fontSize = Math.min(MAX_FONT_SIZE, Math.max(MIN_FONT_SIZE, Math.round(size)));
    if (fontSize !== this.#settings.terminal.fontSize) await this.update({ terminal: { fontSize } });
  }

  /** The side panel's width while dragged (saved by `commitSidePanelWidth`). */
  previewSidePanelWidth(width: number): void {
    this.#settings = { ...this.#settings, ui: { ...this.#settings.ui, sidePanelWidth: clampWidth(width) } };
  }

  async commitSidePanelWidth(width: number): Promise<void> {
    await this.update({ ui: { sidePanelWidth: clampWidth(width) } });
  }

  async toggleSidePanel(): Promise<void> {
    await this.update({ ui: { sidePanelCollapsed: !this.#settings.ui.sidePanelCollapsed } });
  }

  /** Every command, as the palette lists it (enabled or not, in the keymap's order). */
  paletteEntries(): PaletteEntry[] {
    const commands = COMMANDS.map((c) => ({ id: c.id, label: c.label, shortcut: shortcutOf(c.id), enabled: this.canRun(c.id) }));
    return [...commands, ...this.#agentEntries()];
  }

  /** Runs a palette line: its action, or the command it names. */
  runEntry(entry: PaletteEntry): void {
    if (entry.action) entry.action();
    else this.run(entry.id as CommandId);
  }

  /**
   * The active project's agents in the palette: launch in the focused cell (it must be empty;
   * a detached agent is shown there again) or go to its cell, send a task, its conversations.
   */
  #agentEntries(): PaletteEntry[] {
    const tab = this.#workspace.activeTab;
    if (!tab) return [];
    const nodeId = tab.targetNodeId();
    const emptyCell = nodeId !== null && findLeaf(tab.layoutRoot, nodeId)?.session == null;
    return tab.agents.flatMap((agent) => {
      const id = agent.agentId;
      const cell = agent.running ? tab.cellOfAgent(id) : null;
      const place: PaletteEntry = cell
        ? { id: `agent:go:${id}`, label: `${agent.name}: go to its cell`, shortcut: '', enabled: true, action: () => tab.goToCell(cell) }
        : {
            id: `agent:launch:${id}`,
            label: `${agent.name}: ${agent.running ? 'show' : 'launch'} in the focused cell`,
            shortcut: '',
            enabled: emptyCell,
            action: () => {
              if (nodeId) this.#launchRequest = { nodeId, agentId: id };
            },
          };
      return [
        place,
        { id: `agent:task:${id}`, label: `${agent.name}: send a task…`, shortcut: '', enabled: true, action: () => tab.openSendTask(id) },
        {
          id: `agent:conversations:${id}`,
          label: `${agent.name}: conversations…`,
          shortcut: '',
          enabled: true,
          action: () => tab.openConversations(id),
        },
      ];
    });
  }

  /** The palette asked cell `nodeId` to launch (or show) agent `agentId`; its cell does it. */
  get launchRequest(): { nodeId: string; agentId: string } | null {
    return this.#launchRequest;
  }

  launchRequestDone(nodeId: string): void {
    if (this.#launchRequest?.nodeId === nodeId) this.#launchRequest = null;
  }

  canRun(id: CommandId): boolean {
    const tab = this.#workspace.activeTab;
    const nodeId = tab?.targetNodeId() ?? null;
    const session = nodeId && tab ? (findLeaf(tab.layoutRoot, nodeId)?.session ?? null) : null;
    if (isGridCommand(id)) return tab !== null && canRunGrid(id, tab, nodeId);
    switch (id) {
      case 'palette':
      case 'open-project':
      case 'profiles':
      case 'settings':
      case 'zoom-in':
      case 'zoom-out':
      case 'zoom-reset':
        return true;
      case 'next-tab':
      case 'previous-tab':
        return this.#workspace.tabs.length > 1;
      case 'close-project':
      case 'new-agent':
      case 'project-permissions':
        return tab !== null;
      case 'search':
      case 'detach':
      case 'kill':
        return session !== null;
      case 'open-shell':
        return nodeId !== null && session === null;
      default:
        return tab !== null && nodeId !== null;
    }
  }

  /** Runs a command on the active project and its focused cell. */
  run(id: CommandId): void {
    const workspace = this.#workspace;
    const tab = workspace.activeTab;
    const nodeId = tab?.targetNodeId() ?? null;
    const session = nodeId && tab ? (findLeaf(tab.layoutRoot, nodeId)?.session ?? null) : null;
    switch (id) {
      case 'palette':
        if (this.#paletteOpen) this.closePalette();
        else this.#paletteOpen = true;
        return;
      case 'zoom-in':
        void this.setFontSize(this.#settings.terminal.fontSize + 1);
        return;
      case 'zoom-out':
        void this.setFontSize(this.#settings.terminal.fontSize - 1);
        return;
      case 'zoom-reset':
        void this.setFontSize(DEFAULT_FONT_SIZE);
        return;
      case 'next-tab':
      case 'previous-tab':
        this.#switchTab(id === 'next-tab' ? 1 : -1);
        return;
      case 'open-project':
        workspace.activate(null);
        return;
      case 'profiles':
        workspace.openProfiles();
        return;
      case 'settings':
        this.#settingsOpen = true;
        return;
      case 'new-window':
        void workspace.newWindow();
        return;
      case 'quit':
        void workspace.quit();
        return;
      case 'toggle-side-panel':
        void this.toggleSidePanel();
        return;
      case 'show-sessions':
        if (this.#settings.ui.sidePanelCollapsed) void this.update({ ui: { sidePanelCollapsed: false } });
        this.#sessionsRequest += 1;
        return;
    }
    if (!tab) return;
    switch (id) {
      case 'close-project':
        void workspace.close(tab.root);
        return;
      case 'new-agent':
        if (this.#settings.ui.sidePanelCollapsed) void this.update({ ui: { sidePanelCollapsed: false } });
        this.#newAgentRequest = tab.root;
        return;
      case 'project-permissions':
        tab.permissions.open(null);
        return;
    }
    if (!nodeId) return;
    if (isGridCommand(id)) {
      this.#runGrid(id, tab, nodeId);
      return;
    }
    switch (id) {
      case 'undo':
      case 'redo':
        void tab.undoLayout(id);
        return;
      case 'split-row':
      case 'split-column':
        void tab.splitCell(nodeId, id === 'split-row' ? 'row' : 'column');
        return;
      case 'close':
        void tab.closeCell(nodeId);
        return;
      case 'maximize':
        this.toggleMaximize(tab.root, nodeId);
        tab.requestFocus(nodeId);
        return;
      case 'focus-left':
      case 'focus-right':
      case 'focus-up':
      case 'focus-down':
        this.focusNeighbour(id.slice('focus-'.length) as Direction);
        return;
      case 'search':
        if (session) this.openSearch(session);
        return;
      case 'open-shell':
        if (!session) this.#shellRequest = nodeId;
        return;
      case 'detach':
        if (session) void tab.detachCell(nodeId);
        return;
      case 'kill':
        if (session) void tab.killSession(session);
        return;
    }
  }

  /**
   * The grid and named-layout commands, through the same `ProjectTab` calls as the cell menu
   * (merge / unmerge) and the layout bar (presets, balance, switch; `new-layout` opens the
   * bar's own name dialog through `newLayoutRequest`).
   */
  #runGrid(id: GridCommandId, tab: ProjectTab, nodeId: string): void {
    const preset = PRESET_OF[id];
    if (preset) {
      void tab.applyPreset(preset);
      return;
    }
    switch (id) {
      case 'merge-right':
      case 'merge-down': {
        const choice = mergeChoices(tab.layoutRoot, nodeId).find((c) => c.side === MERGE_SIDE[id]);
        if (choice) void tab.mergeCells(choice.nodeIds).then((ok) => ok && tab.requestFocus(nodeId));
        return;
      }
      case 'unmerge':
        if (mergedCell(tab.layoutRoot, nodeId)) void tab.unmergeCell(nodeId).then((ok) => ok && tab.requestFocus(nodeId));
        return;
      case 'balance':
        void tab.balanceLayout();
        return;
      case 'next-layout':
      case 'previous-layout': {
        const target = neighbourLayout(tab, id === 'next-layout' ? 1 : -1);
        if (target) void this.#switchLayout(tab, target);
        return;
      }
      case 'new-layout':
        this.#newLayoutRequest = { root: tab.root, n: (this.#newLayoutRequest?.n ?? 0) + 1 };
        return;
    }
  }

  async #switchLayout(tab: ProjectTab, layoutId: string): Promise<void> {
    const refused = await tab.editNamedLayout({ kind: 'switchLayout', layoutId });
    if (refused) this.#workspace.report(new Error(refused), 'Could not switch the layout', { root: tab.root, kind: 'layout' });
  }

  /** Alt+Arrow: the focus goes to the neighbouring cell on screen (maximised: it restores). */
  focusNeighbour(direction: Direction): void {
    const tab = this.#workspace.activeTab;
    const from = tab?.targetNodeId();
    if (!tab || !from) return;
    const maximized = this.maximizedOf(tab.root);
    if (maximized) {
      // The other cells come back first; the focus moves once they are laid out.
      this.toggleMaximize(tab.root, maximized);
      requestAnimationFrame(() => this.focusNeighbour(direction));
      return;
    }
    const layout = document.querySelector(`[data-testid="project-layout"][data-root="${CSS.escape(tab.root)}"]`);
    const boxes: CellBox[] = [...(layout?.querySelectorAll<HTMLElement>('[data-testid="cell"]') ?? [])].map((el) => {
      const r = el.getBoundingClientRect();
      return { id: el.dataset.nodeId ?? '', left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    });
    const next = neighbourCell(boxes, from, direction);
    if (next) tab.requestFocus(next);
  }

  #switchTab(step: number): void {
    const tabs = this.#workspace.tabs;
    if (tabs.length === 0) return;
    const at = tabs.findIndex((t) => t.root === this.#workspace.activeRoot);
    const next = tabs[(at + step + tabs.length) % tabs.length];
    this.#workspace.activate(next.root);
    next.returnFocus();
  }

  #apply(settings: Settings): void {
    this.#settings = settings;
    this.#terminals.setPreferences(settings.terminal);
  }
}

const MERGE_SIDE: Partial<Record<CommandId, MergeSide>> = { 'merge-right': 'right', 'merge-down': 'below' };

/** Whether a grid / named-layout command applies to the project's focused cell `nodeId`. */
function canRunGrid(id: GridCommandId, tab: ProjectTab, nodeId: string | null): boolean {
  switch (id) {
    case 'merge-right':
    case 'merge-down':
      return nodeId !== null && mergeChoices(tab.layoutRoot, nodeId).some((c) => c.side === MERGE_SIDE[id]);
    case 'unmerge':
      return nodeId !== null && mergedCell(tab.layoutRoot, nodeId) !== null;
    case 'next-layout':
    case 'previous-layout':
      return tab.namedLayouts.length > 1;
    default:
      return tab.layoutRoot !== null;
  }
}

/** The named layout `step` places after (before) the active one, wrapping; null when alone. */
function neighbourLayout(tab: ProjectTab, step: number): string | null {
  const layouts = tab.namedLayouts;
  if (layouts.length < 2) return null;
  const at = Math.max(0, layouts.findIndex((l) => l.active));
  return layouts[(at + step + layouts.length) % layouts.length].id;
}

function clampWidth(width: number): number {
  return Math.min(1200, Math.max(160, Math.round(width)));
}
