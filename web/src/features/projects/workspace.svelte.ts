import {
  asGatewayError,
  type AppInfo,
  type Gateway,
  type Profile,
  type ProjectDTO,
  type PushBatch,
  type RecentProject,
} from '../../lib/ports';
import { ProjectTab } from './project-tab.svelte';

/** One line of the problems banner. */
export interface Notice {
  id: number;
  /** The file concerned, or what the user was doing when a call failed. */
  title: string;
  message: string;
  /** Project the notice belongs to; absent for app-wide ones. */
  root?: string;
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
  info = $state<AppInfo | null>(null);
  profiles = $state<Profile[]>([]);
  recent = $state<RecentProject[]>([]);
  tabs = $state<ProjectTab[]>([]);
  activeRoot = $state<string | null>(null);
  notices = $state<Notice[]>([]);
  showWizard = $state(false);
  starting = $state(true);

  readonly activeTab: ProjectTab | null = $derived(this.tabs.find((t) => t.root === this.activeRoot) ?? null);

  /** Banner lines for the active project (or app-wide ones on the start screen). */
  readonly visibleNotices: Notice[] = $derived(
    this.notices.filter((n) => n.root === undefined || n.root === this.activeRoot),
  );

  #gateway: Gateway;
  #nextNoticeId = 1;

  constructor(gateway: Gateway) {
    this.#gateway = gateway;
  }

  async start(): Promise<void> {
    try {
      const info = await this.#gateway.app.info();
      this.info = info;
      for (const problem of info.problems ?? []) this.#addNotice(problem.file, problem.message);
      this.showWizard = info.firstRun;
      await Promise.all([this.reloadProfiles(), this.reloadRecent()]);
      for (const root of info.startupProjects ?? []) await this.open(root);
    } catch (error) {
      this.report(error, 'Start-up failed');
    } finally {
      this.starting = false;
    }
  }

  async reloadProfiles(): Promise<void> {
    try {
      this.profiles = await this.#gateway.profiles.list();
    } catch (error) {
      this.report(error, 'Could not load profiles');
    }
  }

  async reloadRecent(): Promise<void> {
    try {
      this.recent = await this.#gateway.projects.recent();
    } catch (error) {
      this.report(error, 'Could not load recent projects');
    }
  }

  wizardDone(saved: Profile[]): void {
    this.profiles = saved;
    this.showWizard = false;
  }

  /** Opens a project, or focuses its tab when it is already open. Returns true on success. */
  async open(root: string): Promise<boolean> {
    if (this.#focusIfOpen(root)) return true;
    try {
      this.#adopt(await this.#gateway.projects.open(root));
      void this.reloadRecent();
      return true;
    } catch (error) {
      this.report(error, `Could not open ${root}`);
      return false;
    }
  }

  async create(root: string, name?: string): Promise<boolean> {
    if (this.#focusIfOpen(root)) return true;
    try {
      this.#adopt(await this.#gateway.projects.create(root, name?.trim() || undefined));
      void this.reloadRecent();
      return true;
    } catch (error) {
      this.report(error, `Could not create a project in ${root}`);
      return false;
    }
  }

  async close(root: string): Promise<void> {
    const index = this.tabs.findIndex((t) => t.root === root);
    if (index < 0) return;
    try {
      await this.#gateway.projects.close(root);
    } catch (error) {
      this.report(error, `Closing ${root} failed`);
    }
    this.tabs = this.tabs.filter((t) => t.root !== root);
    this.notices = this.notices.filter((n) => n.root !== root);
    if (this.activeRoot === root) {
      this.activeRoot = this.tabs[Math.min(index, this.tabs.length - 1)]?.root ?? null;
    }
  }

  activate(root: string | null): void {
    this.activeRoot = root;
  }

  /** Shows a failed call in the banner, in the user's terms. */
  report(error: unknown, context: string, root?: string): void {
    const failure = asGatewayError(error);
    this.#addNotice(context, failure.message || failure.code, root ?? this.activeRoot ?? undefined);
  }

  dismiss(id: number): void {
    this.notices = this.notices.filter((n) => n.id !== id);
  }

  dismissAll(): void {
    const visible = new Set(this.visibleNotices.map((n) => n.id));
    this.notices = this.notices.filter((n) => !visible.has(n.id));
  }

  tabFor(root: string | undefined): ProjectTab | undefined {
    if (root === undefined) return undefined;
    const key = rootKey(root);
    return this.tabs.find((t) => rootKey(t.root) === key);
  }

  /** Domain events of a push batch (terminal output is routed by the terminal hub). */
  handlePush(batch: PushBatch): void {
    for (const event of batch.events ?? []) {
      switch (event.type) {
        case 'problem':
          this.#addNotice(event.file, event.message, this.tabFor(event.root)?.root);
          break;
        case 'layoutChanged': {
          const tab = this.tabFor(event.root);
          if (tab) tab.layouts = event.layouts;
          break;
        }
        case 'sessionExited':
          for (const tab of this.tabs) tab.sessionExited(event.sessionId);
          break;
      }
    }
  }

  #focusIfOpen(root: string): boolean {
    const tab = this.tabFor(root);
    if (tab) this.activeRoot = tab.root;
    return tab !== undefined;
  }

  #adopt(dto: ProjectDTO): void {
    const existing = this.tabFor(dto.root);
    if (existing) {
      this.activeRoot = existing.root;
      return;
    }
    const tab = new ProjectTab(dto, this.#gateway, (error, context) => this.report(error, context, dto.root));
    this.tabs = [...this.tabs, tab];
    this.activeRoot = tab.root;
    for (const problem of dto.problems ?? []) this.#addNotice(problem.file, problem.message, tab.root);
  }

  #addNotice(title: string, message: string, root?: string): void {
    const duplicate = this.notices.some((n) => n.title === title && n.message === message && n.root === root);
    if (duplicate) return;
    this.notices = [...this.notices, { id: this.#nextNoticeId++, title, message, root }];
  }
}
