import {
  asGatewayError,
  type AgentActivity,
  type AppInfo,
  type BusySession,
  type BusyShellAtQuit,
  type Escalation,
  type Gateway,
  type Profile,
  type ProjectDTO,
  type PushBatch,
  type RecentProject,
  type WindowTabs,
  type WorkspaceWire,
} from '../../lib/ports';
import { attentionFor, attentionMessage, finishedTurnConcernsUser } from '../../lib/domain/delegations';
import { leaves } from '../../lib/domain/layout-tree';
import { Toasts } from '../orchestration/toasts.svelte';
import { closedShellMessage } from './closed-shell';
import { ProjectTab } from './project-tab.svelte';

/**
 * What a banner line is about. `problem` = a file the backend could not read (corrupt JSON…):
 * kept until dismissed. Every other kind is a failed action; a later success of the same kind
 * clears it (`resolved`), so the banner does not pile up stale errors.
 */
export type NoticeKind = 'problem' | 'startup' | 'project' | 'profiles' | 'recent' | 'layout' | 'agent' | 'terminal' | 'folder-dialog';

/** One line of the problems banner. */
export interface Notice {
  id: number;
  /** The file concerned, or what the user was doing when a call failed. */
  title: string;
  message: string;
  kind: NoticeKind;
  /** Project the notice belongs to; absent for app-wide ones. */
  root?: string;
  /** A problem's one-click way out (`startFresh`: keep the broken `layouts.json` as `.bak`). */
  recovery?: 'startFresh';
}

/** A problem with this file shows in the agents panel itself, not in the banner. */
export function isAgentsFileProblem(notice: Notice): boolean {
  return notice.kind === 'problem' && /[\\/]agents\.json$/.test(notice.title);
}

/** "Open project…" found a folder without `.ideai/`: the window offers to initialise it. */
export interface InitOffer {
  root: string;
  message: string;
}

/**
 * A saved tab whose project cannot open: the folder is gone ("folder not found": relocate /
 * remove), or it is there without `.ideai/` (`notAProject`: initialise it here as well).
 */
export interface MissingTab {
  root: string;
  message: string;
  notAProject?: boolean;
}

/** One entry of the tab bar. */
export type TabEntry = { kind: 'project'; root: string; tab: ProjectTab } | { kind: 'missing'; root: string; missing: MissingTab };

/** The answer to a confirmation: end them (`kill`; at quit: stop the agents), keep them in the background, or cancel. */
export type Choice = 'kill' | 'keep' | 'cancel';

/** A busy shell named in the quit question: its session and how to call it. */
export type QuitShell = { sessionId: string; label: string };

/**
 * A confirmation on screen: busy shells about to end (`what` closes), or what quitting would
 * stop (running agents, busy shells of every window, detached ones included).
 */
/** `busy`: closing `what` ends these shells (`shells`: each named `bash 1 · sleep`). */
export type QuestionBody = { kind: 'busy'; busy: BusySession[]; shells: QuitShell[]; what: string } | { kind: 'quit'; agents: string[]; shells: QuitShell[] };
export type Question = QuestionBody & { resolve: (choice: Choice) => void };

/** Path comparison key: trailing separators dropped, backslashes unified. */
export function rootKey(path: string): string {
  const unified = path.trim().replace(/\\/g, '/');
  return unified.length > 1 ? unified.replace(/\/+$/, '') : unified;
}

/**
 * The window's state: app info, open project tabs, the active tab, the problems banner.
 * Start-up order: `app.info()` → (first run: wizard) → `profiles.list()` → `projects.recent()`.
 */
export class Workspace {
  #info = $state.raw<AppInfo | null>(null);
  #profiles = $state.raw<Profile[]>([]);
  #recent = $state.raw<RecentProject[]>([]);
  #tabs = $state.raw<ProjectTab[]>([]);
  #activeRoot = $state<string | null>(null);
  #notices = $state.raw<Notice[]>([]);
  /** Projects whose layout was edited while their `layouts.json` could not be read (unsaved). */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never rendered
  #unsavedLayouts = new Set<string>();
  #showWizard = $state(false);
  #wizardMode = $state<'first-run' | 'manage'>('first-run');
  #starting = $state(true);
  // -- windows and tabs (issue 9)
  #windowId = $state<string | null>(null);
  #labels = $state.raw<Record<string, string>>({});
  /** Tab order of this window (roots, as the backend has it). */
  #order = $state.raw<string[]>([]);
  /** Saved tabs whose folder is gone: shown as "folder not found" with relocate / remove. */
  #missing = $state.raw<MissingTab[]>([]);
  /** The question on screen (kill a busy shell? stop the agents at quit?), with its answer. */
  #question = $state.raw<Question | null>(null);
  /** Roots being opened (a push must not open them a second time). */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never rendered
  #opening = new Set<string>();

  readonly #activeTab: ProjectTab | null = $derived(this.#tabs.find((t) => t.root === this.#activeRoot) ?? null);
  readonly #visibleNotices: Notice[] = $derived(
    this.#notices.filter((n) => (n.root === undefined || n.root === this.#activeRoot) && !isAgentsFileProblem(n)),
  );
  #initOffer = $state.raw<InitOffer | null>(null);

  #gateway: Gateway;
  #nextNoticeId = 1;

  /** In-app notifications: agents out of sight that finished or wait, failed delegations. */
  readonly toasts = new Toasts();
  /** The toast announcing each escalation raised out of sight, by ticket (it goes once resolved). */
  #escalationToasts: Record<string, number> = {};
  /** The toast of each closed cell's shell waiting out its grace (`killPending`), by session id. */
  #closedShellToasts: Record<string, number> = {};

  constructor(gateway: Gateway) {
    this.#gateway = gateway;
  }

  /** `app.info()` once start-up read it. */
  get info(): AppInfo | null {
    return this.#info;
  }

  /** The saved AI CLI profiles. */
  get profiles(): readonly Profile[] {
    return this.#profiles;
  }

  /** The profiles offered to agents: those ticked in Profiles… (the backend refuses the others). */
  get offeredProfiles(): readonly Profile[] {
    return this.#profiles.filter((p) => p.enabled !== false);
  }

  /** The saved profile's name; `null` when no saved profile has this id (removed in Profiles…). */
  profileName(id: string): string | null {
    return this.#profiles.find((p) => p.id === id)?.name ?? null;
  }

  get recent(): readonly RecentProject[] {
    return this.#recent;
  }

  /** Open projects, in tab order. */
  get tabs(): readonly ProjectTab[] {
    return this.#tabs;
  }

  /** Root of the project shown; `null` = the start screen. */
  get activeRoot(): string | null {
    return this.#activeRoot;
  }

  get activeTab(): ProjectTab | null {
    return this.#activeTab;
  }

  /** Every banner line, of every project. */
  get notices(): readonly Notice[] {
    return this.#notices;
  }

  /** Banner lines for the active project (or app-wide ones on the start screen). */
  get visibleNotices(): readonly Notice[] {
    return this.#visibleNotices;
  }

  /** The project's `agents.json` problem (the agents panel states it), if any. */
  agentsProblem(root: string): Notice | undefined {
    return this.#notices.find((n) => n.root === root && isAgentsFileProblem(n));
  }

  /** A folder "Open project…" found without `.ideai/`, waiting for the user's answer. */
  get initOffer(): InitOffer | null {
    return this.#initOffer;
  }

  /** The user declined to initialise the folder. */
  declineInit(): void {
    this.#initOffer = null;
  }

  /** The user accepted: `.ideai/` is created there and the project opens. */
  async acceptInit(): Promise<boolean> {
    const offer = this.#initOffer;
    this.#initOffer = null;
    return offer ? this.create(offer.root) : false;
  }

  /**
   * "Keep the broken file as .bak and start fresh" (`layout.startFresh`): the tab takes the
   * layouts now written; the problem goes (its `problemResolved` push says so too).
   */
  async startFresh(root: string): Promise<void> {
    const tab = this.tabFor(root);
    if (!tab) return;
    try {
      const fresh = await this.#gateway.layout.startFresh(tab.root);
      tab.applyLayouts(fresh.layouts);
      this.#notices = this.#notices.filter((n) => !(n.root === tab.root && n.recovery === 'startFresh'));
      this.#unsavedLayouts.delete(tab.root);
      this.toasts.show({ message: `The broken layouts file is kept as ${fresh.backup}`, tone: 'info', root: tab.root });
      this.resolved('layout', tab.root);
    } catch (error) {
      this.report(error, 'Could not start with a fresh layout', { root: tab.root, kind: 'layout' });
    }
  }

  get showWizard(): boolean {
    return this.#showWizard;
  }

  /** `first-run`: the welcome wizard; `manage`: "Profiles…" from the status bar (cancellable). */
  get wizardMode(): 'first-run' | 'manage' {
    return this.#wizardMode;
  }

  /** True until start-up (info, profiles, recent, `--project` roots) is done. */
  get starting(): boolean {
    return this.#starting;
  }

  /** This OS window's id (`windows.state()`), once known. */
  get windowId(): string | null {
    return this.#windowId;
  }

  /** The tab label of `root`: its name, told apart from a same-named folder's. */
  labelOf(root: string, name: string): string {
    const label = this.#labels[root];
    const parent = label?.includes(' — ') ? label.slice(label.indexOf(' — ') + 3) : null;
    return parent ? `${name} — ${parent}` : name;
  }

  /** This window's tabs in order: an open project, or a saved one whose folder is missing. */
  get tabEntries(): readonly TabEntry[] {
    const tabs = this.#tabs;
    const missing = this.#missing;
    const entries: TabEntry[] = [];
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- local to this getter
    const seen = new Set<string>();
    for (const root of this.#order) {
      const tab = tabs.find((t) => rootKey(t.root) === rootKey(root));
      const gone = missing.find((m) => rootKey(m.root) === rootKey(root));
      if (tab && !seen.has(tab.root)) entries.push({ kind: 'project', root: tab.root, tab });
      else if (gone && !seen.has(gone.root)) entries.push({ kind: 'missing', root: gone.root, missing: gone });
      seen.add(tab?.root ?? gone?.root ?? root);
    }
    for (const tab of tabs) if (!seen.has(tab.root)) entries.push({ kind: 'project', root: tab.root, tab });
    for (const gone of missing) if (!seen.has(gone.root)) entries.push({ kind: 'missing', root: gone.root, missing: gone });
    return entries;
  }

  /** The saved tab shown whose folder is missing, if that is the active one. */
  get activeMissing(): MissingTab | null {
    return this.#missing.find((m) => m.root === this.#activeRoot) ?? null;
  }

  /** The confirmation on screen, if any. */
  get question(): Question | null {
    return this.#question;
  }

  /** The user answered the question on screen. */
  answer(choice: Choice): void {
    const question = this.#question;
    this.#question = null;
    question?.resolve(choice);
  }

  /**
   * Asks before ending busy shells: `kill`, `keep` (in the background) or `cancel`. Nothing
   * busy: answers `kill` at once (nothing would be lost).
   */
  askAboutBusy(busy: readonly BusySession[], what: string): Promise<Choice> {
    if (busy.length === 0) return Promise.resolve('kill');
    const sessions = this.#tabs.flatMap((t) => t.sessions);
    const shells = busy.map((b) => {
      const title = sessions.find((s) => s.sessionId === b.sessionId)?.title;
      return { sessionId: b.sessionId, label: title ? `${title} · ${b.process}` : b.process };
    });
    return this.#ask({ kind: 'busy', busy: [...busy], shells, what });
  }

  #ask(question: QuestionBody): Promise<Choice> {
    this.#question?.resolve('cancel');
    return new Promise((resolve) => {
      this.#question = { ...question, resolve };
    });
  }

  /** Busy shells among `sessionIds` (best effort: none when the backend cannot tell). */
  async busyAmong(sessionIds: string[]): Promise<BusySession[]> {
    if (sessionIds.length === 0) return [];
    try {
      return await this.#gateway.windows.busy(sessionIds);
    } catch {
      return [];
    }
  }

  /** A new OS window (menu, Ctrl+Shift+N). */
  async newWindow(): Promise<void> {
    try {
      await this.#gateway.windows.open();
    } catch (error) {
      this.report(error, 'Could not open a window', { kind: 'project' });
    }
  }

  /**
   * Quit IdeA: with agents running or shells busy (in any window, detached ones too), asks
   * first in one question (kill them and quit / cancel: none can outlive the app); what to
   * restore is recorded by the backend.
   */
  async quit(): Promise<void> {
    const [agents, busy] = await Promise.all([
      this.#gateway.windows.liveAgents().catch(() => []),
      this.#gateway.windows.busyAtQuit().catch(() => []),
    ]);
    if (agents.length > 0 || busy.length > 0) {
      const names = agents.map((a) => this.tabFor(a.root)?.agentName(a.agentId) ?? a.agentId);
      const shells = busy.map((b) => ({ sessionId: b.sessionId, label: this.#quitShellLabel(b) }));
      if ((await this.#ask({ kind: 'quit', agents: names, shells })) !== 'kill') return;
    }
    await this.#gateway.windows.quit();
  }

  /** `bash 1 · sleep (alpha, in the background)`. */
  #quitShellLabel(shell: BusyShellAtQuit): string {
    const project = this.tabFor(shell.root)?.name ?? (shell.root.split(/[\\/]/).filter(Boolean).at(-1) ?? shell.root);
    return `${shell.title} · ${shell.process} (${project}${shell.background ? ', in the background' : ''})`;
  }

  /** The OS window is being closed: ask about busy shells (or, for the last one, quit). */
  async #closeRequested(quit: boolean): Promise<void> {
    if (quit) {
      await this.quit();
      return;
    }
    const shells = this.#tabs.flatMap((t) => t.sessions.filter((s) => s.kind === 'shell' && s.alive).map((s) => s.sessionId));
    const choice = await this.askAboutBusy(await this.busyAmong(shells), 'this window');
    if (choice === 'cancel') return;
    const busy = choice === 'keep' ? (await this.busyAmong(shells)).map((b) => b.sessionId) : [];
    await this.#gateway.windows.close(busy);
  }

  /** Drag a tab: the backend holds what is dragged (windows share no drag data). */
  dragStart(root: string): void {
    void this.#gateway.windows.dragStart(root).catch(() => undefined);
  }

  /** A tab (of this window or another) was dropped on this tab bar at `index`. */
  async dropTab(index: number): Promise<void> {
    try {
      await this.#gateway.windows.dropTab(index);
    } catch (error) {
      this.report(error, 'Could not move the tab', { kind: 'project' });
    }
  }

  /** This window's tab drag ended (the page cannot tell whether another window took it): outside all windows, it opens a new one. */
  async dragEnd(screenX: number, screenY: number): Promise<void> {
    try {
      await this.#gateway.windows.dragEnd(Math.round(screenX), Math.round(screenY));
    } catch (error) {
      this.report(error, 'Could not move the tab', { kind: 'project' });
    }
  }

  /**
   * "Relocate…" on a missing folder's tab: the tab shows the project at `folder` (typed or
   * picked; `~` expands) in place of `root`. Resolves with null, or with the reason it could
   * not open `folder` (the "folder not found" view shows it and keeps the tab).
   */
  async relocateTo(root: string, folder: string): Promise<string | null> {
    const target = folder.trim();
    if (!target) return 'Type or pick the folder the project is in now.';
    try {
      // Opened with the shells the old folder showed at the last quit (a trial lost them).
      const dto = await this.#gateway.windows.relocate(root, target);
      this.#missing = this.#missing.filter((m) => m.root !== root);
      // The tab keeps its place in the bar.
      this.#order = this.#order.map((r) => (r === root ? dto.root : r));
      this.#adopt(dto);
      return null;
    } catch (error) {
      return asGatewayError(error).message || `Could not open ${target}`;
    }
  }

  /** "Initialise here" on a saved tab whose folder has no `.ideai/`: the project is created there, in place. */
  async initialiseMissing(root: string): Promise<void> {
    try {
      const dto = await this.#gateway.projects.create(root);
      this.#missing = this.#missing.filter((m) => m.root !== root);
      this.#adopt(dto);
    } catch (error) {
      this.report(error, `Could not create a project in ${root}`, { kind: 'project' });
    }
  }

  /** "Remove" on a missing folder's tab. */
  async removeMissing(root: string): Promise<void> {
    this.#missing = this.#missing.filter((m) => m.root !== root);
    this.#order = this.#order.filter((r) => r !== root);
    if (this.#activeRoot === root) this.#show(this.#tabs[0]?.root ?? null);
    await this.#gateway.windows.closeTab(root).catch(() => undefined);
  }

  /** A saved tab at start: opened with its shells restored, or kept as "folder not found". */
  async #openSaved(root: string): Promise<void> {
    if (this.tabFor(root)) return;
    this.#opening.add(root);
    try {
      this.#adopt(await this.#gateway.windows.openSaved(root));
    } catch (error) {
      const failure = asGatewayError(error);
      if (failure.code === 'NOT_FOUND') {
        const notAProject = failure.details.reason === 'notAProject';
        this.#missing = [...this.#missing.filter((m) => m.root !== root), { root, message: failure.message, notAProject }];
        this.#order = this.#order.includes(root) ? this.#order : [...this.#order, root];
      } else {
        this.report(error, `Could not open ${root}`, { kind: 'project' });
      }
    } finally {
      this.#opening.delete(root);
    }
  }

  /** `workspaceChanged`: this window's share — tabs moved away go (their sessions run on), new ones open. */
  #workspaceChanged(wire: WorkspaceWire): void {
    this.#labels = wire.labels ?? {};
    const mine: WindowTabs | undefined = wire.windows.find((w) => w.id === this.#windowId);
    if (!mine) return;
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- local to this handler
    const wanted = new Set(mine.tabs.map(rootKey));
    for (const tab of this.#tabs.filter((t) => !wanted.has(rootKey(t.root)))) {
      if (this.#opening.has(tab.root)) continue;
      tab.dispose();
      this.#tabs = this.#tabs.filter((t) => t !== tab);
      this.#notices = this.#notices.filter((n) => n.root !== tab.root);
    }
    this.#missing = this.#missing.filter((m) => wanted.has(rootKey(m.root)));
    this.#order = [...mine.tabs];
    for (const root of mine.tabs) {
      if (this.tabFor(root) || this.#opening.has(root) || this.#missing.some((m) => m.root === root)) continue;
      this.#opening.add(root);
      void this.#gateway.projects
        .open(root)
        .then((dto) => {
          this.#adopt(dto);
          if (mine.activeRoot && rootKey(mine.activeRoot) === rootKey(root)) this.#show(this.tabFor(root)?.root ?? null);
        })
        .catch((error: unknown) => this.report(error, `Could not open ${root}`, { kind: 'project' }))
        .finally(() => this.#opening.delete(root));
    }
    const active = mine.activeRoot ? this.tabFor(mine.activeRoot)?.root ?? null : null;
    const current = this.#activeRoot;
    if (active && active !== current) this.#show(active);
    else if (current !== null && !this.tabFor(current) && !this.#missing.some((m) => m.root === current)) {
      this.#show(this.tabEntries[0]?.root ?? null);
    }
  }

  async start(): Promise<void> {
    try {
      const info = await this.#gateway.app.info();
      this.#info = info;
      for (const problem of info.problems ?? []) this.#addNotice('problem', problem.file, problem.message, undefined, problem.recovery);
      this.#wizardMode = 'first-run';
      this.#showWizard = info.firstRun;
      await this.reloadProfiles();
      const state = await this.#gateway.windows.state().catch(() => null);
      const mine = state?.windows.find((w) => w.id === state.windowId);
      if (state) {
        this.#windowId = state.windowId;
        this.#labels = state.labels ?? {};
        this.#order = [...(mine?.tabs ?? [])];
      }
      // This window's saved tabs (and `--project` roots), their shells restored.
      for (const root of info.startupProjects ?? []) await this.#openSaved(root);
      await this.reloadRecent(); // after those: opening them made them recent
      if (mine?.activeRoot && (this.tabFor(mine.activeRoot) || this.#missing.some((m) => m.root === mine.activeRoot))) {
        this.#show(this.tabFor(mine.activeRoot)?.root ?? mine.activeRoot);
      }
    } catch (error) {
      this.report(error, 'Start-up failed', { kind: 'startup' });
    } finally {
      this.#starting = false;
    }
  }

  async reloadProfiles(): Promise<void> {
    try {
      this.#profiles = await this.#gateway.profiles.list();
      this.resolved('profiles');
    } catch (error) {
      this.report(error, 'Could not load profiles', { kind: 'profiles' });
    }
  }

  async reloadRecent(): Promise<void> {
    try {
      this.#recent = await this.#gateway.projects.recent();
      this.resolved('recent');
    } catch (error) {
      this.report(error, 'Could not load recent projects', { kind: 'recent' });
    }
  }

  wizardDone(saved: Profile[]): void {
    this.#profiles = saved;
    this.#showWizard = false;
    this.resolved('profiles');
  }

  /** Reopens the profile wizard on the current profiles ("Profiles…" in the status bar). */
  openProfiles(): void {
    this.#wizardMode = 'manage';
    this.#showWizard = true;
  }

  /** Closes the wizard without saving; only "Profiles…" offers it, the first run must save. */
  cancelWizard(): void {
    if (this.#wizardMode === 'manage') this.#showWizard = false;
  }

  /** Opens a project, or focuses its tab when it is already open. Returns true on success. */
  async open(root: string): Promise<boolean> {
    if (this.#focusIfOpen(root)) {
      this.resolved('project'); // an earlier failure to open is stale now (a trial saw it stay)
      return true;
    }
    this.#opening.add(root);
    try {
      const dto = await this.#gateway.projects.open(root);
      // One tab per project: another window that has it is focused instead.
      this.#place(dto, await this.#gateway.windows.placeTab(dto.root).catch(() => this.#windowId));
      this.resolved('project');
      void this.reloadRecent();
      return true;
    } catch (error) {
      const failure = asGatewayError(error);
      if (failure.code === 'NOT_FOUND' && failure.details.reason === 'notAProject') {
        const folder = typeof failure.details.root === 'string' ? failure.details.root : root;
        this.#initOffer = { root: folder, message: failure.message };
        return false;
      }
      this.report(error, `Could not open ${root}`, { kind: 'project' });
      return false;
    } finally {
      this.#opening.delete(root);
    }
  }

  /**
   * The tab of `dto` goes in the window `holder` shows it in: here, or another window (focused
   * by the backend), which a toast says, since the window manager may not raise it.
   */
  #place(dto: ProjectDTO, holder: string | null): void {
    if (holder === this.#windowId || this.#windowId === null) {
      this.#adopt(dto);
      return;
    }
    this.toasts.bump(`elsewhere:${dto.root}`, () => ({
      message: `${dto.name} is open in another window: that window was brought to the front`,
      tone: 'info',
      root: dto.root,
    }));
  }

  async create(root: string, name?: string): Promise<boolean> {
    if (this.#focusIfOpen(root)) return true;
    try {
      const dto = await this.#gateway.projects.create(root, name?.trim() || undefined);
      this.#place(dto, await this.#gateway.windows.placeTab(dto.root).catch(() => this.#windowId));
      this.resolved('project');
      void this.reloadRecent();
      return true;
    } catch (error) {
      this.report(error, `Could not create a project in ${root}`, { kind: 'project' });
      return false;
    }
  }

  async close(root: string): Promise<void> {
    const index = this.#tabs.findIndex((t) => t.root === root);
    if (index < 0) return;
    const shells = this.#tabs[index].sessions.filter((s) => s.kind === 'shell' && s.alive).map((s) => s.sessionId);
    const busy = await this.busyAmong(shells);
    const choice = await this.askAboutBusy(busy, this.#tabs[index].name);
    if (choice === 'cancel') return;
    const keep = choice === 'keep' ? busy.map((b) => b.sessionId) : [];
    const tab = this.#tabs[index];
    let closed = true;
    try {
      await this.#gateway.windows.closeTab(root, keep);
    } catch (error) {
      closed = false;
      this.report(error, `Closing ${root} failed`, { kind: 'project' });
    }
    tab.dispose();
    this.#tabs = this.#tabs.filter((t) => t.root !== root);
    this.#notices = this.#notices.filter((n) => n.root !== root);
    this.toasts.dismissProject(root);
    if (closed && keep.length > 0) {
      // Out of sight now: say what runs on and how to get it back (a trial was told nothing).
      const running = busy.map((b) => `${tab.sessions.find((s) => s.sessionId === b.sessionId)?.title ?? 'a shell'} · ${b.process}`);
      const them = keep.length > 1 ? 'them' : 'it';
      this.toasts.show({ message: `${running.join(', ')} ${keep.length > 1 ? 'run' : 'runs'} on in the background: open ${tab.name} again (click here) to see ${them}`, tone: 'info', root });
    }
    if (this.#activeRoot === root) {
      this.#show(this.#tabs[Math.min(index, this.#tabs.length - 1)]?.root ?? null);
    }
  }

  activate(root: string | null): void {
    this.#show(root);
    void this.#gateway.windows.activate(root).catch(() => undefined);
  }

  /**
   * A toast was clicked: shows the project's tab and, when a cell of it shows the agent, that
   * cell (focused, briefly highlighted). A project no tab shows is opened again (its shells
   * kept in the background come back in their cells).
   */
  goToAgent(root: string, agentId?: string): void {
    const tab = this.tabFor(root);
    if (!tab) {
      void this.open(root);
      return;
    }
    this.#show(tab.root);
    const nodeId = agentId ? tab.cellOfAgent(agentId) : null;
    if (nodeId) {
      tab.goToCell(nodeId);
      tab.requestFocus(nodeId);
    }
  }

  /**
   * Shows a failed call in the banner, in the user's terms. `root` defaults to the active
   * project; `kind` (default `terminal`) says which later success clears it (`resolved`).
   */
  report(error: unknown, context: string, options: { root?: string; kind?: Exclude<NoticeKind, 'problem'> } = {}): void {
    const failure = asGatewayError(error);
    const root = options.root ?? this.#activeRoot ?? undefined;
    this.#addNotice(options.kind ?? 'terminal', context, failure.message || failure.code, root);
  }

  /**
   * An action of `kind` succeeded: drops the earlier failures of that kind (of project `root`
   * only, when given). Problems with files are never cleared this way.
   */
  resolved(kind: Exclude<NoticeKind, 'problem'>, root?: string): void {
    // A layout edit while layouts.json cannot be read applies here and is not written.
    if (kind === 'layout' && root !== undefined && this.#notices.some((n) => n.root === root && n.recovery === 'startFresh')) {
      this.#unsavedLayouts.add(root);
    }
    const stale = (n: Notice) => n.kind === kind && (root === undefined || n.root === root);
    if (this.#notices.some(stale)) this.#notices = this.#notices.filter((n) => !stale(n));
  }

  dismiss(id: number): void {
    this.#notices = this.#notices.filter((n) => n.id !== id);
  }

  dismissAll(): void {
    const visible = this.#visibleNotices.map((n) => n.id);
    this.#notices = this.#notices.filter((n) => !visible.includes(n.id));
  }

  tabFor(root: string | undefined): ProjectTab | undefined {
    if (root === undefined) return undefined;
    const key = rootKey(root);
    return this.#tabs.find((t) => rootKey(t.root) === key);
  }

  /**
   * Domain events of a push batch, each to the tab of its project (terminal output and the
   * hub's share of session events are routed by the terminal hub).
   */
  handlePush(batch: PushBatch): void {
    for (const event of batch.events ?? []) {
      if (event.type === 'problem') {
        // A project shown in no tab of this window: the window that shows it states it (a
        // tab that opens here later brings its problems in its open answer).
        const tab = this.tabFor(event.root);
        if (event.root && !tab) continue;
        this.#addNotice('problem', event.file, event.message, tab?.root, event.recovery);
        tab?.fileProblemChanged(event.file);
        continue;
      }
      if (event.type === 'problemResolved') {
        const root = this.tabFor(event.root)?.root;
        const gone = (n: Notice) => n.kind === 'problem' && n.title === event.file && n.root === root;
        if (root !== undefined && this.#unsavedLayouts.has(root) && this.#notices.some((n) => gone(n) && n.recovery === 'startFresh')) {
          // The file was fixed outside IdeA: its layouts win over the edits made meanwhile.
          this.#unsavedLayouts.delete(root);
          this.toasts.show({
            message: `${event.file} was read again: the layout changes made while it could not be read were not kept`,
            tone: 'info',
            root,
          });
        }
        this.#notices = this.#notices.filter((n) => !gone(n));
        this.tabFor(event.root)?.fileProblemChanged(event.file);
        continue;
      }
      if (event.type === 'workspaceChanged') {
        this.#workspaceChanged(event);
        continue;
      }
      if (event.type === 'closeRequested') {
        if (event.windowId === this.#windowId) void this.#closeRequested(event.quit);
        continue;
      }
      const tab = this.tabFor(event.root);
      if (!tab) continue;
      switch (event.type) {
        case 'layoutChanged':
          tab.applyLayouts(event.layouts);
          this.#dropClosedShellToasts(leaves(tab.layoutRoot).flatMap((leaf) => (leaf.session ? [leaf.session] : [])));
          break;
        case 'sessionStarted':
          tab.sessionStarted(event.session);
          break;
        case 'sessionExited':
          tab.sessionExited(event.sessionId, event.exitCode);
          break;
        case 'sessionReleased':
          tab.sessionReleased(event.sessionId);
          this.#dropClosedShellToasts([event.sessionId]);
          break;
        case 'killPending': {
          const title = tab.sessions.find((s) => s.sessionId === event.sessionId)?.title;
          const toast = this.toasts.show({ message: closedShellMessage(title, event.graceMs), tone: 'info', root: tab.root });
          this.#closedShellToasts[event.sessionId] = toast.id;
          break;
        }
        case 'agentStateChanged':
          tab.agentStateChanged(event.agentId, event.state, event.sessionId);
          break;
        case 'agentsChanged':
          void tab.reloadAgents();
          break;
        case 'agentActivity':
          this.#agentActivity(tab, event.agentId, tab.agentActivity(event.agentId, event.activity, event.queueDepth, event.blockedOn, event.ticket));
          break;
        case 'delegation': {
          const { ticket, from, to, kind, state, reason } = event;
          tab.delegationChanged(reason === undefined ? { ticket, from, to, kind, state } : { ticket, from, to, kind, state, reason });
          if (state === 'failed' && reason === 'CANCELLED') {
            // The asker left before the answer (its `idea ask` ended): not an error of `to`.
            const message = `${tab.participantName(from)} gave up on its task for ${tab.participantName(to)}: withdrawn (an answer, if any, is only logged)`;
            this.toasts.show({ message, tone: 'info', root: tab.root, agentId: to });
          } else if (state === 'failed') {
            const message = `Task for ${tab.participantName(to)} from ${tab.participantName(from)} failed: ${reason ?? 'unknown reason'}`;
            this.toasts.show({ message, tone: 'error', root: tab.root, agentId: to });
          }
          break;
        }
        case 'escalation':
          this.#escalation(tab, event);
          break;
        case 'permissionDenied':
          tab.permissions.denied(event.agentId);
          if (event.denial.source === 'sandbox') {
            const message = `${tab.agentName(event.agentId) ?? 'An agent'} was not run: ${event.denial.message}`;
            this.toasts.show({ message, tone: 'error', root: tab.root, agentId: event.agentId });
          }
          break;
        case 'headlessActivity':
          tab.headlessActivity(event);
          break;
        case 'escalationResolved': {
          tab.escalations.resolved(event.ticket);
          const toast = this.#escalationToasts[event.ticket];
          if (toast !== undefined) this.toasts.dismiss(toast);
          delete this.#escalationToasts[event.ticket];
          break;
        }
      }
    }
  }

  /**
   * An agent's activity changed from `previous`: when it finished, stopped during a turn or
   * waits for the user while none of its cells is in sight, a toast says so and its tab (if
   * not the one shown) gets a dot. Finished turns count in one toast per agent while it shows
   * ("Beta finished 7 tasks"); a turn another agent asked for is not the user's business (its
   * failure is: see the `delegation` toast).
   */
  #agentActivity(tab: ProjectTab, agentId: string, previous: AgentActivity | undefined): void {
    const agent = tab.agents.find((a) => a.agentId === agentId);
    if (!agent || previous === undefined) return;
    const kind = attentionFor(previous, agent.activity);
    if (!kind) return;
    const inSight = tab.root === this.#activeRoot && tab.cellOfAgent(agentId) !== null;
    if (inSight) return;
    const root = tab.root;
    if (kind === 'finished') {
      if (!finishedTurnConcernsUser(tab.turnRequester(agentId))) return;
      const finished = (count: number) => attentionMessage('finished', agent.name, count);
      this.toasts.bump(`finished:${root}:${agentId}`, (count) => ({ message: finished(count), tone: 'info', root, agentId }));
    } else {
      this.toasts.show({ message: attentionMessage(kind, agent.name), tone: 'info', root, agentId });
    }
    if (root !== this.#activeRoot) tab.markAttention();
  }

  /**
   * An agent asks the user to decide: the question joins its tab's queue (the prompt shows
   * while the tab does); out of sight, a toast says so and the tab gets a dot.
   */
  #escalation(tab: ProjectTab, event: Escalation): void {
    const { ticket, agentId, options } = event;
    const escalation: Escalation = { root: tab.root, ticket, agentId, options: options ?? [] };
    if (event.task) escalation.task = event.task;
    if (!tab.escalations.raise(escalation) || tab.root === this.#activeRoot) return;
    const name = tab.agentName(agentId) ?? agentId;
    const toast = this.toasts.show({ message: `${name} needs your decision`, tone: 'info', root: tab.root, agentId });
    this.#escalationToasts[ticket] = toast.id;
    tab.markAttention();
  }

  /** Shows a tab (or the start screen); the tab's attention dot goes. */
  #show(root: string | null): void {
    this.#activeRoot = root;
    if (root !== null) this.tabFor(root)?.clearAttention();
  }

  #focusIfOpen(root: string): boolean {
    const tab = this.tabFor(root);
    if (tab) this.#show(tab.root);
    return tab !== undefined;
  }

  /** The closed shells among `sessionIds` are back in a cell, or gone: their toast goes. */
  #dropClosedShellToasts(sessionIds: readonly string[]): void {
    for (const sessionId of sessionIds) {
      const toast = this.#closedShellToasts[sessionId];
      if (toast === undefined) continue;
      this.toasts.dismiss(toast);
      delete this.#closedShellToasts[sessionId];
    }
  }

  #adopt(dto: ProjectDTO): void {
    const existing = this.tabFor(dto.root);
    if (existing) {
      this.#activeRoot = existing.root;
      return;
    }
    const tab = new ProjectTab(dto, this.#gateway, {
      report: (error, context, kind) => this.report(error, context, { root: dto.root, kind }),
      resolved: (kind) => this.resolved(kind, dto.root),
      tell: (message) => this.toasts.show({ message, tone: 'info', root: dto.root }),
      askAboutBusy: async (sessionIds, what) => {
        const busy = await this.busyAmong(sessionIds);
        return busy.length === 0 ? 'idle' : this.askAboutBusy(busy, what);
      },
    });
    this.#tabs = [...this.#tabs, tab];
    if (!this.#order.some((r) => rootKey(r) === rootKey(tab.root))) this.#order = [...this.#order, tab.root];
    this.#activeRoot = tab.root;
    for (const problem of dto.problems ?? []) this.#addNotice('problem', problem.file, problem.message, tab.root, problem.recovery);
  }

  #addNotice(kind: NoticeKind, title: string, message: string, root?: string, recovery?: 'startFresh'): void {
    if (kind === 'problem') {
      // A file's problem is stated once, however often it is reported (start-up, a push heard
      // before its tab existed, the open answer): the project's report replaces an app-wide one.
      // A later report of the same file with another message (fixed one way, broken another)
      // replaces the message in place (a trial saw the first message stay).
      const same = this.#notices.find((n) => n.kind === 'problem' && n.title === title && (n.root === root || n.root === undefined));
      if (same && (same.root !== undefined || root === undefined)) {
        if (same.message !== message || same.recovery !== recovery) {
          this.#notices = this.#notices.map((n) => (n === same ? { ...n, message, recovery } : n));
        }
        return;
      }
      if (same) this.#notices = this.#notices.filter((n) => n !== same);
    } else if (this.#notices.some((n) => n.title === title && n.root === root && n.message === message)) {
      return;
    }
    const notice: Notice = { id: this.#nextNoticeId++, kind, title, message, root };
    if (recovery) notice.recovery = recovery;
    this.#notices = [...this.#notices, notice];
  }
}
