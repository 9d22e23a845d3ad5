import {
  asGatewayError,
  type AgentActivity,
  type AppInfo,
  type Escalation,
  type Gateway,
  type Profile,
  type ProjectDTO,
  type PushBatch,
  type RecentProject,
} from '../../lib/ports';
import { attentionFor, attentionMessage, finishedTurnConcernsUser } from '../../lib/domain/delegations';
import { Toasts } from '../orchestration/toasts.svelte';
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
  #showWizard = $state(false);
  #wizardMode = $state<'first-run' | 'manage'>('first-run');
  #starting = $state(true);

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

  async start(): Promise<void> {
    try {
      const info = await this.#gateway.app.info();
      this.#info = info;
      for (const problem of info.problems ?? []) this.#addNotice('problem', problem.file, problem.message, undefined, problem.recovery);
      this.#wizardMode = 'first-run';
      this.#showWizard = info.firstRun;
      await Promise.all([this.reloadProfiles(), this.reloadRecent()]);
      for (const root of info.startupProjects ?? []) await this.open(root);
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
    if (this.#focusIfOpen(root)) return true;
    try {
      this.#adopt(await this.#gateway.projects.open(root));
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
    }
  }

  async create(root: string, name?: string): Promise<boolean> {
    if (this.#focusIfOpen(root)) return true;
    try {
      this.#adopt(await this.#gateway.projects.create(root, name?.trim() || undefined));
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
    try {
      await this.#gateway.projects.close(root);
    } catch (error) {
      this.report(error, `Closing ${root} failed`, { kind: 'project' });
    }
    this.#tabs[index].dispose();
    this.#tabs = this.#tabs.filter((t) => t.root !== root);
    this.#notices = this.#notices.filter((n) => n.root !== root);
    this.toasts.dismissProject(root);
    if (this.#activeRoot === root) {
      this.#show(this.#tabs[Math.min(index, this.#tabs.length - 1)]?.root ?? null);
    }
  }

  activate(root: string | null): void {
    this.#show(root);
  }

  /**
   * A toast was clicked: shows the project's tab and, when a cell of it shows the agent, that
   * cell (focused, briefly highlighted).
   */
  goToAgent(root: string, agentId?: string): void {
    const tab = this.tabFor(root);
    if (!tab) return;
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
        this.#addNotice('problem', event.file, event.message, this.tabFor(event.root)?.root, event.recovery);
        continue;
      }
      if (event.type === 'problemResolved') {
        const root = this.tabFor(event.root)?.root;
        this.#notices = this.#notices.filter((n) => !(n.kind === 'problem' && n.title === event.file && n.root === root));
        continue;
      }
      const tab = this.tabFor(event.root);
      if (!tab) continue;
      switch (event.type) {
        case 'layoutChanged':
          tab.applyLayouts(event.layouts);
          break;
        case 'sessionStarted':
          tab.sessionStarted(event.session);
          break;
        case 'sessionExited':
          tab.sessionExited(event.sessionId, event.exitCode);
          break;
        case 'sessionReleased':
          tab.sessionReleased(event.sessionId);
          break;
        case 'agentStateChanged':
          tab.agentStateChanged(event.agentId, event.state, event.sessionId);
          break;
        case 'agentActivity':
          this.#agentActivity(tab, event.agentId, tab.agentActivity(event.agentId, event.activity, event.queueDepth, event.blockedOn, event.ticket));
          break;
        case 'delegation': {
          const { ticket, from, to, kind, state, reason } = event;
          tab.delegationChanged(reason === undefined ? { ticket, from, to, kind, state } : { ticket, from, to, kind, state, reason });
          if (state === 'failed') {
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

  #adopt(dto: ProjectDTO): void {
    const existing = this.tabFor(dto.root);
    if (existing) {
      this.#activeRoot = existing.root;
      return;
    }
    const tab = new ProjectTab(dto, this.#gateway, {
      report: (error, context, kind) => this.report(error, context, { root: dto.root, kind }),
      resolved: (kind) => this.resolved(kind, dto.root),
    });
    this.#tabs = [...this.#tabs, tab];
    this.#activeRoot = tab.root;
    for (const problem of dto.problems ?? []) this.#addNotice('problem', problem.file, problem.message, tab.root, problem.recovery);
  }

  #addNotice(kind: NoticeKind, title: string, message: string, root?: string, recovery?: 'startFresh'): void {
    if (kind === 'problem') {
      // A file's problem is stated once, however often it is reported (start-up, a push heard
      // before its tab existed, the open answer): the project's report replaces an app-wide one.
      const same = this.#notices.find((n) => n.kind === 'problem' && n.title === title && (n.root === root || n.root === undefined));
      if (same && (same.root !== undefined || root === undefined)) return;
      if (same) this.#notices = this.#notices.filter((n) => n !== same);
    } else if (this.#notices.some((n) => n.title === title && n.root === root && n.message === message)) {
      return;
    }
    const notice: Notice = { id: this.#nextNoticeId++, kind, title, message, root };
    if (recovery) notice.recovery = recovery;
    this.#notices = [...this.#notices, notice];
  }
}
