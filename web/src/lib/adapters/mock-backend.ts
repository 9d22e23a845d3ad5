import { activeRoot, leaves } from '../domain/layout-tree';
import { applyGridOp, applyNamedOp, isNamedOp } from './mock-layouts';
import {
  GatewayError,
  asGatewayError,
  type AgentActivity,
  type AgentDTO,
  type AgentChange,
  type AgentInput,
  type AppInfo,
  type AttachResult,
  type ConversationDTO,
  type ConversationSummary,
  type DelegationDTO,
  type DelegationKind,
  type Denial,
  type Escalation,
  type HeadlessEntry,
  type HeadlessKind,
  type IpcMatrix,
  type LaunchResult,
  type LayoutDoc,
  type LayoutNode,
  type LayoutOp,
  type LeafNode,
  type PermissionsDoc,
  type PermissionsInfo,
  type PermissionTestResult,
  type Problem,
  type Profile,
  type ProfileDetection,
  type ProfileTemplate,
  type ResumableAgent,
  type ResumeChoice,
  type ResumeOutcome,
  type ProjectDTO,
  type PushBatch,
  type PushEvent,
  type RecentProject,
  type SendResult,
  type SessionDTO,
  type SessionKind,
  type Settings,
  type SettingsPatch,
  type ShellResult,
  type SwapResult,
  type TerminalSize,
  type SizeMark,
  type FreshStart,
  type BusySession,
  type BusyShellAtQuit,
  type LiveAgent,
  type WindowTabs,
  type WorkspaceState,
  type WorkspaceWire,
} from '../ports';
import { forbiddenBy, normalizeMatrix } from './mock-access';
import { MockConversations, USER_PARTY, type MockConversationSeed } from './mock-conversations';
import { MockPermissions, type MockPermissionsSeed } from './mock-permissions';
import type { BridgeApi, BridgeReply } from './pywebview';

export type { MockConversationSeed, MockTurnSeed } from './mock-conversations';
export type { MockPermissionsSeed } from './mock-permissions';

/**
 * The in-memory stand-in for the Python side (used by component tests and by `vite dev` in a
 * plain browser). It speaks the bridge protocol of docs/contracts.md §4 as the real one does:
 * every method resolves with a JSON `{ok}` / `{error}` envelope, `openShell` and `launch`
 * write the session into the cell themselves and answer with the layouts, and the session
 * life cycle is pushed (`sessionStarted`, `sessionExited`, `sessionReleased`,
 * `agentStateChanged`, `layoutChanged`) a tick after the call, like the push pump would.
 * Rules it follows: "Detach from cell" never kills; closing a cell detaches an agent and
 * kills a shell once the close grace has passed unless a cell shows it again (`killPending`;
 * at once with `kill: true`); an ended session in no cell is released. Terminals echo what is typed when asked.
 *
 * Delegation (docs/contracts.md §7): one FIFO mailbox per agent (capacity `inboxCapacity`), one
 * turn at a time once the agent runs. Tickets are asks (`ask`: an agent waits for the reply) or
 * messages (the user's sends, `message`), and every `delegation` push and graph row says which.
 * A turn start pushes `agentActivity` (busy), `delegation` (active) and, when this window
 * attached the agent's session, `delegationReady` addressed to the window's view with the last
 * reported `lineDirty` (again on every later attach until `orchestration.delivered`); with no
 * view attached, or when the view detaches before acknowledging, a headless portal types it into
 * the scrollback once the reported human line is clean (`orchestration.humanLine`). Writes
 * carrying a ticket are recorded as such. Turns end through `finishTurn` (tests), after
 * `autoReplyMs` from delivery (the demo), or with the session (NO_REPLY).
 *
 * Permissions (docs/contracts.md §9, `mock-permissions.ts`): one `permissions.json` per project
 * (seeded, or `'corrupt'`), validated and decided like the Python side; a launched agent's
 * session carries the sandbox its permissions get; `reportDenial` plays a denial push.
 *
 * Conversations, packets, the access matrix, escalation (docs/contracts.md §8): each turn's
 * prompt and response go into the pair's log (`conversations.list|read`); `reply` plays an
 * agent's `idea_reply` with a signal (RETURN, ERROR → AGENT_ERROR, BLOCKED_ON → activity
 * `blocked`, CHECKPOINT, ESCALATE → an `escalation` push until `orchestration.decide`); a
 * matrix set with `agents.setIpc` (or seeded) refuses the sends it forbids (FORBIDDEN).
 */

/** How the mock's built-in CLIs install (the backend's `profiles.install_hint`). */
const MOCK_INSTALL: Record<string, string> = {
  'claude-code': 'npm install -g @anthropic-ai/claude-code',
  'codex-cli': 'npm install -g @openai/codex',
  'gemini-cli': 'npm install -g @google/gemini-cli',
  aider: 'python -m pip install aider-install && aider-install',
};

/** Why `profile`'s empty command cannot be the user's shell (the backend's
 * `profile_rules.shell_misfit_problem`), or null: Test reports it, Save refuses it. */
export function shellMisfit(profile: Profile): string | null {
  if (profile.command) return null;
  if (profile.args.length > 0 || profile.session || (profile.projectAccess?.args.length ?? 0) > 0) {
    return "name the CLI's command (e.g. claude): an empty command runs your shell, which takes none of this profile's arguments";
  }
  if (profile.detect || ['conventionFile', 'flag'].includes(profile.contextInjection.strategy)) {
    return "name the CLI's command (e.g. my-cli): an empty command runs your shell, which is never detected and reads its context only from an environment variable";
  }
  return null;
}

export const BUILTIN_PROFILES: Profile[] = [
  { id: 'claude-code', name: 'Claude Code', command: 'claude', args: [], contextInjection: { strategy: 'conventionFile', target: 'CLAUDE.md' } },
  { id: 'codex-cli', name: 'Codex CLI', command: 'codex', args: [], contextInjection: { strategy: 'conventionFile', target: 'AGENTS.md' } },
  { id: 'gemini-cli', name: 'Gemini CLI', command: 'gemini', args: [], contextInjection: { strategy: 'conventionFile', target: 'GEMINI.md' } },
  { id: 'aider', name: 'Aider', command: 'aider', args: [], contextInjection: { strategy: 'flag', flag: '--read' } },
  { id: 'shell', name: 'Shell', command: 'sh', args: [], contextInjection: { strategy: 'env', var: 'IDEA_CONTEXT' } },
];

/** What `profiles.templates` answers (the backend's `profile_templates`). */
export const PROFILE_TEMPLATES: ProfileTemplate[] = [
  {
    id: 'acp-agent',
    name: 'ACP agent',
    description: 'Any agent speaking the Agent Client Protocol: OpenCode (opencode, ACP args: acp), Goose (goose, acp), Qwen Code (qwen, --experimental-acp)…',
    profile: { id: 'acp-agent', name: 'ACP agent', command: 'opencode', args: [], contextInjection: { strategy: 'conventionFile', target: 'AGENTS.md' }, detect: { args: ['--version'], timeoutMs: 5000 }, structured: { protocol: 'acp', args: ['acp'] } },
  },
  {
    id: 'custom',
    name: 'Custom CLI',
    description: 'Any other command-line tool.',
    profile: { id: 'custom', name: 'Custom CLI', command: '', args: [], contextInjection: { strategy: 'conventionFile', target: 'AGENTS.md' }, detect: { args: ['--version'], timeoutMs: 5000 } },
  },
];

export interface MockCall {
  method: string;
  args: unknown[];
}

export interface MockOptions {
  firstRun?: boolean;
  /** Commands found on PATH; default: `sh` and `claude`. */
  installed?: string[];
  recent?: RecentProject[];
  /** Folders that exist as projects already (open succeeds); their `sessions` are seeded. */
  projects?: ProjectDTO[];
  profiles?: Profile[];
  /** Agents the resume panel offers, per project root (`resume.pending`). */
  resumable?: Record<string, ResumableAgent[]>;
  /** Folders where create fails with NOT_WRITABLE. */
  readOnly?: string[];
  /** Answer of `pickFolder`. */
  pickedFolder?: string | null;
  /** Emulate a shell: echo input and print a prompt. Off in tests unless asked. */
  echo?: boolean;
  /** This window's view id (`app.info().view`); default `view-1`. */
  view?: string;
  /** Tickets a mailbox holds behind the current turn before `INBOX_FULL`; default 100. */
  inboxCapacity?: number;
  /** When set, a turn ends (done) this many ms after its delivery; default: only `finishTurn`. */
  autoReplyMs?: number | null;
  /** Conversations logged earlier. */
  conversations?: MockConversationSeed[];
  /** Access matrices declared in the agents' personas, by agent id. */
  ipc?: Record<string, IpcMatrix>;
  /** `permissions.json` by project root (`'corrupt'`: a file that does not parse). */
  permissions?: Record<string, MockPermissionsSeed>;
  /** `app.info().platform` and what the pretend OS sandbox can do (`linux`: Landlock ABI 7). */
  platform?: string;
  /** Folders that exist without `.ideai/`: `projects.open` answers `NOT_FOUND` / `notAProject`. */
  plainFolders?: string[];
  /** What `settings.get` answers at first. */
  settings?: Settings;
}

/** What an agent's `idea_reply` carries (docs/contracts.md §8.2), as `MockBackend.reply` takes it. */
export type MockReply =
  | { signal: 'RETURN'; result: string }
  | { signal: 'ERROR'; context: string }
  | { signal: 'BLOCKED_ON'; context: string }
  | { signal: 'CHECKPOINT'; context: string }
  | { signal: 'ESCALATE'; options: string[] };

/** A ticket as the mock's orchestrator holds it. */
export interface MockTicket {
  ticket: string;
  root: string;
  /** Requester: an agent id or `'user'`. */
  from: string;
  to: string;
  /** `ask` (an agent's `ask`), or `message` (the user's sends, an agent's `message`). */
  kind: DelegationKind;
  task: string;
  state: 'queued' | 'active' | 'done' | 'failed';
  /** The write portal (or the headless one) typed it. */
  delivered: boolean;
}

/** A session as the mock backend holds it: the DTO plus its project and output so far. */
export interface MockSession extends SessionDTO {
  root: string;
  scrollback: string;
  /** The PTY sizes its scrollback was produced at (`attach` answers them). */
  sizes?: SizeMark[];
}

/** Default preferences, as `settings.json` without a `terminal` / `ui` section. */
export const DEFAULT_SETTINGS: Settings = {
  terminal: { fontSize: 13, scrollbackLines: 10_000 },
  ui: { sidePanelWidth: 260, sidePanelCollapsed: false },
};

/** Bounds the real backend enforces (`app/core/domain/project.py`). */
const SETTING_BOUNDS: Record<string, [number, number]> = {
  'terminal.fontSize': [6, 40],
  'terminal.scrollbackLines': [100, 200_000],
  'ui.sidePanelWidth': [160, 1200],
};

/** What the Settings dialog calls a setting: a refusal names it so, as the backend's (`field_labels`). */
const SETTING_LABELS: Record<string, string> = {
  'terminal.fontSize': 'Terminal font size',
  'terminal.scrollbackLines': 'Scrollback lines',
};

interface MockProject {
  root: string;
  name: string;
  agents: AgentDTO[];
  layouts: LayoutDoc | null;
  problems: Problem[];
}

/** Exit code the mock reports for a session it killed (128 + SIGINT, like a shell). */
const KILLED_EXIT_CODE = 130;

/** How long a closed cell's shell runs on hidden before its kill (the backend's `CLOSE_GRACE_MS`). */
const CLOSE_GRACE_MS = 30_000;

const DEFAULT_INBOX_CAPACITY = 100;

/** How long a launched agent stays `starting` when no view attaches its session. */
const LAUNCH_SETTLE_MS = 200;

export class MockBackend {
  readonly calls: MockCall[] = [];
  readonly sessions = new Map<string, MockSession>();
  readonly projects = new Map<string, MockProject>();
  #options: Required<MockOptions>;
  #deliver: (batch: PushBatch) => void;
  #savedProfiles: Profile[];
  #personas = new Map<string, string>();
  #failures = new Map<string, GatewayError[]>();
  /** What `resume.pending` answers per project root (`options.resumable`), shrinking as answered. */
  #resumable = new Map<string, ResumableAgent[]>();
  #history = new Map<string, { undo: LayoutDoc[]; redo: LayoutDoc[] }>();
  /** Timers of closed cells' shells waiting out the grace, by session id. */
  #pendingKills = new Map<string, ReturnType<typeof setTimeout>>();
  #counters = new Map<string, number>();
  #outbox: PushEvent[] = [];
  /** Sessions this window attached (and did not detach since). */
  #attached = new Set<string>();
  /** Sessions whose human line a portal last reported dirty (`orchestration.humanLine`). */
  readonly dirtyLines = new Set<string>();
  /** Queued tickets per agent id, oldest first. */
  #mailboxes = new Map<string, MockTicket[]>();
  /** The running turn per agent id. */
  #turns = new Map<string, MockTicket>();
  /** Every ticket so far, by id. */
  readonly tickets = new Map<string, MockTicket>();
  /** Pair conversation logs. */
  readonly conversations: MockConversations;
  /** Escalations waiting for the user, by ticket. */
  readonly escalations = new Map<string, Escalation>();
  /** Headless-turn activity played with `headless()`, as `orchestration.transcript` returns it. */
  readonly headlessEntries: HeadlessEntry[] = [];
  /** Every `orchestration.decide` that found its question, in order. */
  readonly decisions: { ticket: string; choice: string }[] = [];
  #ipc = new Map<string, IpcMatrix>();
  readonly permissions: MockPermissions;
  #settings: Settings;
  /** The OS windows and their tabs (`windows.*`); tests may add windows or tabs. */
  readonly windows: WindowTabs[] = [{ id: 'w1', tabs: [], activeRoot: null }];
  /** Shells "running a foreground process", by session id (`windows.busy`). */
  readonly busySessions = new Map<string, string>();

  /** `deliver` receives the pushes, as `window.__ideaPush` would. */
  constructor(options: MockOptions, deliver: (batch: PushBatch) => void) {
    this.#options = {
      firstRun: false,
      installed: ['sh', 'claude'],
      recent: [],
      projects: [],
      profiles: BUILTIN_PROFILES,
      readOnly: [],
      pickedFolder: null,
      echo: false,
      view: 'view-1',
      inboxCapacity: DEFAULT_INBOX_CAPACITY,
      autoReplyMs: null,
      conversations: [],
      ipc: {},
      permissions: {},
      platform: 'linux',
      resumable: {},
      settings: DEFAULT_SETTINGS,
      plainFolders: [],
      // An option given as `undefined` keeps its default.
      ...(Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as MockOptions),
    };
    this.conversations = new MockConversations();
    this.permissions = new MockPermissions(this.#options.permissions, this.#options.platform);
    for (const seed of this.#options.conversations) this.conversations.seed(structuredClone(seed));
    for (const [agentId, matrix] of Object.entries(this.#options.ipc)) {
      const stored = normalizeMatrix(matrix);
      if (stored) this.#ipc.set(agentId, stored);
    }
    this.#deliver = deliver;
    this.#settings = structuredClone(this.#options.settings);
    this.#savedProfiles = structuredClone(this.#options.profiles);
    for (const [root, rows] of Object.entries(this.#options.resumable)) this.#resumable.set(root, structuredClone(rows));
    for (const dto of this.#options.projects) {
      const { sessions, ...project } = structuredClone(dto);
      for (const agent of project.agents) {
        agent.activity ??= agent.running ? 'idle' : 'stopped';
        agent.queueDepth ??= 0;
      }
      this.projects.set(project.root, project);
      for (const session of sessions ?? []) this.seedSession({ ...session, root: project.root });
    }
  }

  /** The object the gateway calls, shaped like `window.pywebview.api`. */
  bridge(): BridgeApi {
    return this.api as unknown as BridgeApi;
  }

  /** Mock detection: a command is installed when `options.installed` lists it; an empty one is
   * the user's shell (`/bin/sh`), or fails saying why when the profile cannot be the shell. */
  #detect(profile: Profile): ProfileDetection {
    if (!profile.command) {
      const misfit = shellMisfit(profile);
      return {
        profile,
        installed: misfit === null,
        version: null,
        state: misfit === null ? 'installed' : 'failed',
        path: misfit === null ? '/bin/sh' : null,
        output: misfit ?? 'uses your shell: /bin/sh',
        exitCode: null,
        install: null,
      };
    }
    const installed = this.#options.installed.includes(profile.command);
    const version = installed && profile.id !== 'shell' ? `${profile.command} 1.0.0` : null;
    return {
      profile,
      installed,
      version,
      state: installed ? 'installed' : 'missing',
      path: installed ? (profile.command.startsWith('/') ? profile.command : `/usr/bin/${profile.command}`) : null,
      output: installed ? (version ?? '') : `${profile.command}: not found on the PATH`,
      exitCode: installed ? 0 : null,
      install: MOCK_INSTALL[profile.id] === undefined || BUILTIN_PROFILES.find((p) => p.id === profile.id)?.command !== profile.command ? null : MOCK_INSTALL[profile.id],
    };
  }

  /** Makes the next call of `method` (e.g. `agents.launch`) answer with `error`. */
  /** The persona of `agentId` rewritten outside IdeA (an editor, another agent). */
  editPersonaOnDisk(agentId: string, text: string): void {
    this.#personas.set(agentId, text);
  }

  failNext(method: string, error: GatewayError): void {
    const queue = this.#failures.get(method) ?? [];
    queue.push(error);
    this.#failures.set(method, queue);
  }

  /** Puts a session into the backend as if it had been started earlier; returns its id. */
  seedSession(seed: Partial<MockSession> = {}): string {
    const sessionId = seed.sessionId ?? this.#id('s');
    const session: MockSession = {
      sessionId,
      kind: 'shell',
      alive: true,
      exitCode: null,
      title: 'Shell',
      root: '',
      scrollback: '',
      ...seed,
    };
    this.sessions.set(sessionId, session);
    return sessionId;
  }

  /** The session's process ended with `exitCode` (pushes follow, as after a real exit). */
  exit(sessionId: string, exitCode: number | null): void {
    const session = this.sessions.get(sessionId);
    if (session?.alive) this.#end(session, exitCode);
  }

  /**
   * Agent `from` asks `to` (an agent id or name) to do `task`, as its MCP tool would (an `ask`:
   * `from` waits for the reply); the ticket is queued like a user's message. Answers as one
   * `orchestration.send` result.
   */
  ask(root: string, from: string, to: string, task: string): SendResult {
    return this.#enqueue(this.#project(root), from, to, task, 'ask');
  }

  /** Agent `from` sends `to` a `message` (fire and forget: nobody waits), as its MCP tool would. */
  message(root: string, from: string, to: string, text: string): SendResult {
    return this.#enqueue(this.#project(root), from, to, text, 'message');
  }

  /**
   * The agent's current turn ends: `done` (it replied `reply`, logged in the pair's
   * conversation), or `failed` with an error code.
   */
  finishTurn(
    agentId: string,
    outcome: { state: 'done'; reply?: string } | { state: 'failed'; reason: string } = { state: 'done' },
  ): void {
    const turn = this.#turns.get(agentId);
    if (!turn) throw new Error(`mock: ${agentId} has no running turn`);
    if (outcome.state === 'done') this.#endTurn(turn, 'done', undefined, outcome.reply ?? 'Done.');
    else this.#endTurn(turn, 'failed', outcome.reason);
  }

  /**
   * The agent answers its current turn with a packet, as its `idea_reply` would: RETURN ends
   * it (done), ERROR fails it (`AGENT_ERROR`), BLOCKED_ON makes the agent `blocked` (the turn
   * goes on), CHECKPOINT logs the context, ESCALATE asks the user (returns the question's ticket).
   */
  reply(agentId: string, packet: MockReply): string | null {
    const turn = this.#turns.get(agentId);
    if (!turn) throw new Error(`mock: ${agentId} has no running turn`);
    const { project, agent } = this.#agentAnywhere(agentId);
    switch (packet.signal) {
      case 'RETURN':
        this.#endTurn(turn, 'done', undefined, packet.result);
        return null;
      case 'ERROR':
        this.#endTurn(turn, 'failed', 'AGENT_ERROR', packet.context);
        return null;
      case 'BLOCKED_ON':
        agent.activity = 'blocked';
        agent.blockedOn = packet.context;
        this.#emitActivity(project.root, agent, turn.ticket);
        return null;
      case 'CHECKPOINT':
        this.conversations.append(turn.root, turn.to, turn.from, 'response', packet.context);
        return null;
      case 'ESCALATE':
        return this.escalate(agentId, packet.options);
    }
  }

  /** Agent `agentId`'s headless turn `ticket` did `kind`: pushes `headlessActivity` and keeps it. */
  headless(agentId: string, ticket: string, kind: HeadlessKind, text: string): HeadlessEntry {
    const { project } = this.#agentAnywhere(agentId);
    const entry: HeadlessEntry = { root: project.root, agentId, ticket, kind, text, atMs: Date.now() };
    this.headlessEntries.push(entry);
    this.#emit({ type: 'headlessActivity', ...entry });
    return entry;
  }

  /**
   * Agent `agentId` asks the user to choose: pushes `escalation` (its current task as `task`
   * unless given) and returns the question's ticket.
   */
  escalate(agentId: string, options: string[], task?: string): string {
    const { project } = this.#agentAnywhere(agentId);
    const escalation: Escalation = { root: project.root, ticket: `e${this.#count('escalation')}`, agentId, options };
    const current = task ?? this.#turns.get(agentId)?.task;
    if (current !== undefined) escalation.task = current;
    this.escalations.set(escalation.ticket, escalation);
    this.#emit({ type: 'escalation', ...escalation });
    return escalation.ticket;
  }

  /** Another window answered escalation `ticket`: `escalationResolved` is pushed. */
  resolveEscalation(ticket: string, choice: string): void {
    const escalation = this.escalations.get(ticket);
    if (!escalation) throw new Error(`mock: no pending escalation ${ticket}`);
    this.escalations.delete(ticket);
    this.#emit({ type: 'escalationResolved', root: escalation.root, ticket, choice });
  }

  /** `agents.json` of `root` was edited on disk to hold `agents`: pushed as `agentsChanged`. */
  editAgentsOnDisk(root: string, agents: AgentDTO[]): void {
    this.#project(root).agents = agents;
    this.#emit({ type: 'agentsChanged', root });
  }

  /** The agent's activity changes (e.g. `waiting` when a hook says it asks for permission). */
  setActivity(agentId: string, activity: AgentActivity): void {
    const { project, agent } = this.#agentAnywhere(agentId);
    agent.activity = activity;
    this.#emitActivity(project.root, agent);
  }

  /** Something refused agent `agentId` (its CLI's report, or a refused launch): kept and pushed. */
  reportDenial(agentId: string, denial: Omit<Denial, 'atMs'> & { atMs?: number }): void {
    const { project } = this.#agentAnywhere(agentId);
    const full: Denial = { atMs: Date.now(), ...denial };
    this.permissions.addDenial(agentId, full);
    this.#emit({ type: 'permissionDenied', root: project.root, agentId, denial: full });
  }

  readonly api = {
    permissions: {
      get: (root: string) =>
        this.#reply<PermissionsInfo>('permissions.get', [root], () => {
          this.#project(root);
          return {
            document: this.permissions.get(root),
            machine: this.permissions.machine,
            platform: this.permissions.platform,
            exposed: this.permissions.exposed(root),
          };
        }),
      save: (root: string, document: PermissionsDoc) =>
        this.#reply<PermissionsDoc>('permissions.save', [root, document], () => {
          this.#project(root);
          return this.permissions.save(root, document);
        }),
      test: (root: string, agentId: string | null, capability: string, target: string, draft?: PermissionsDoc) =>
        this.#reply<PermissionTestResult>('permissions.test', draft === undefined ? [root, agentId, capability, target] : [root, agentId, capability, target, draft], () => {
          const project = this.#project(root);
          if (agentId !== null) this.#agent(project, agentId);
          return this.permissions.test(root, agentId, capability, target, draft);
        }),
      denials: (root: string, agentId: string) =>
        this.#reply<Denial[]>('permissions.denials', [root, agentId], () => {
          this.#agent(this.#project(root), agentId);
          return this.permissions.denials(agentId);
        }),
    },

    app: {
      info: () =>
        this.#reply<AppInfo>('app.info', [], () => ({
          version: '0.1.0-mock',
          dataDir: '/tmp/idea-mock',
          firstRun: this.#options.firstRun,
          platform: this.#options.platform,
          problems: [],
          view: this.#info(),
          // As the real window: the saved tabs of this window open at start.
          startupProjects: [...this.windows[0].tabs],
        })),
    },

    orchestration: {
      send: (root: string, targets: string[], text: string) =>
        this.#reply<SendResult[]>('orchestration.send', [root, targets, text], () => {
          const project = this.#project(root);
          if (!text.trim()) throw new GatewayError('INVALID', 'the message is empty');
          return targets.map((target) => this.#enqueue(project, 'user', target, text, 'message'));
        }),
      delivered: (root: string, ticket: string) =>
        this.#reply('orchestration.delivered', [root, ticket], () => {
          const turn = this.tickets.get(ticket);
          if (turn?.state === 'active' && !turn.delivered) this.#delivered(turn);
          return null;
        }),
      humanLine: (root: string, sessionId: string, dirty: boolean) =>
        this.#reply('orchestration.humanLine', [root, sessionId, dirty], () => {
          if (dirty) {
            this.dirtyLines.add(sessionId);
            return null;
          }
          this.dirtyLines.delete(sessionId);
          // A delivery the headless portal held back for a dirty line goes now, if no view took it.
          const session = this.sessions.get(sessionId);
          const turn = session?.agentId ? this.#turns.get(session.agentId) : undefined;
          if (session && turn && !turn.delivered && !this.#attached.has(sessionId)) this.#typeHeadless(turn, session);
          return null;
        }),
      decide: (root: string, ticket: string, choice: string) =>
        this.#reply('orchestration.decide', [root, ticket, choice], () => {
          const escalation = this.escalations.get(ticket);
          if (!escalation || escalation.root !== root) {
            throw new GatewayError('NOT_FOUND', 'this question was already answered or withdrawn', { ticket });
          }
          this.escalations.delete(ticket);
          this.decisions.push({ ticket, choice });
          this.#emit({ type: 'escalationResolved', root, ticket, choice });
          return null;
        }),
      graph: (root: string) =>
        this.#reply<DelegationDTO[]>('orchestration.graph', [root], () => {
          this.#project(root);
          return [...this.tickets.values()]
            .filter((t) => t.root === root && (t.state === 'queued' || t.state === 'active'))
            .map(({ ticket, from, to, kind, state }) => ({ ticket, from, to, kind, state }));
        }),
      transcript: (root: string, agentId: string) =>
        this.#reply<HeadlessEntry[]>('orchestration.transcript', [root, agentId], () => {
          this.#project(root);
          return this.headlessEntries.filter((e) => e.root === root && e.agentId === agentId);
        }),
      pending: (root: string) =>
        this.#reply<Escalation[]>('orchestration.pending', [root], () => {
          this.#project(root);
          return [...this.escalations.values()].filter((e) => e.root === root);
        }),
    },

    // resume after a restart (issue 10 item 7)
    resume: {
      pending: (root: string) =>
        this.#reply<ResumableAgent[]>('resume.pending', [root], () => {
          this.#project(root);
          return this.#resumable.get(root) ?? [];
        }),
      answer: (root: string, nodeId: string, choice: ResumeChoice, cols: number, rows: number) =>
        this.#reply<ResumeOutcome>('resume.answer', [root, nodeId, choice, cols, rows], () => {
          const project = this.#project(root);
          const rows_ = this.#resumable.get(root) ?? [];
          const agent = rows_.find((r) => r.nodeId === nodeId);
          if (!agent) throw new GatewayError('NOT_FOUND', `no agent to resume in cell '${nodeId}'`, { nodeId });
          this.#resumable.set(root, rows_.filter((r) => r !== agent));
          if (choice === 'ignore') return { agent, choice, sessionId: null, resumed: false, layouts: this.#layoutsOf(project) };
          const launched = this.#launch(project, agent.agentId, nodeId);
          return { agent, choice, sessionId: launched.sessionId, resumed: choice === 'resume' && agent.how === 'resume', layouts: launched.layouts };
        }),
    },

    // -- windows and tabs (issue 9): one window, `w1`, unless a test adds others.
    windows: {
      state: () => this.#reply<WorkspaceState>('windows.state', [], () => ({ windowId: 'w1', ...this.#workspaceWire() })),
      open: () =>
        this.#reply<string>('windows.open', [], () => {
          const id = `w${this.windows.length + 1}`;
          this.windows.push({ id, tabs: [], activeRoot: null });
          this.#emitWorkspace();
          return id;
        }),
      placeTab: (root: string) =>
        this.#reply<string>('windows.placeTab', [root], () => {
          const holder = this.windows.find((w) => w.tabs.includes(root));
          if (holder) {
            holder.activeRoot = root;
            return holder.id;
          }
          const mine = this.windows[0];
          mine.tabs.push(root);
          mine.activeRoot = root;
          this.#emitWorkspace();
          return mine.id;
        }),
      closeTab: (root: string, keep?: string[]) =>
        this.#reply('windows.closeTab', [root, keep ?? []], () => {
          for (const w of this.windows) {
            w.tabs = w.tabs.filter((t) => t !== root);
            if (w.activeRoot === root) w.activeRoot = w.tabs[0] ?? null;
          }
          this.#emitWorkspace();
          return null;
        }),
      activate: (root: string | null) =>
        this.#reply('windows.activate', [root], () => {
          this.windows[0].activeRoot = root;
          return null;
        }),
      moveTab: (root: string, windowId: string, index?: number) =>
        this.#reply('windows.moveTab', index === undefined ? [root, windowId] : [root, windowId, index], () => {
          const target = this.windows.find((w) => w.id === windowId);
          if (!target) throw new GatewayError('NOT_FOUND', `no window ${windowId}`);
          for (const w of this.windows) w.tabs = w.tabs.filter((t) => t !== root);
          target.tabs.splice(index ?? target.tabs.length, 0, root);
          target.activeRoot = root;
          this.#emitWorkspace();
          return null;
        }),
      relocate: (oldRoot: string, newRoot: string) =>
        this.#reply<ProjectDTO>('windows.relocate', [oldRoot, newRoot], () => {
          const project = this.#existing(newRoot);
          if (!project) throw new GatewayError('NOT_FOUND', `${newRoot}: folder not found`);
          for (const w of this.windows) {
            w.tabs = w.tabs.map((t) => (t === oldRoot ? newRoot : t));
            if (w.activeRoot === oldRoot) w.activeRoot = newRoot;
          }
          this.#emitWorkspace();
          return this.#dto(project);
        }),
      dragStart: (root: string) => this.#reply('windows.dragStart', [root], () => null),
      dropTab: (index: number) => this.#reply('windows.dropTab', [index], () => false),
      dragEnd: (screenX: number, screenY: number) => this.#reply<string | null>('windows.dragEnd', [screenX, screenY], () => null),
      busy: (sessionIds: string[]) =>
        this.#reply<BusySession[]>('windows.busy', [sessionIds], () =>
          sessionIds.filter((id) => this.busySessions.has(id)).map((id) => ({ sessionId: id, process: this.busySessions.get(id) ?? '' })),
        ),
      liveAgents: () =>
        this.#reply<LiveAgent[]>('windows.liveAgents', [], () =>
          [...this.projects.values()].flatMap((p) => p.agents.filter((a) => a.running).map((a) => ({ root: p.root, agentId: a.agentId }))),
        ),
      busyAtQuit: () =>
        this.#reply<BusyShellAtQuit[]>('windows.busyAtQuit', [], () =>
          [...this.busySessions].flatMap(([id, process]) => {
            const session = this.sessions.get(id);
            if (!session || session.kind !== 'shell' || !session.alive) return [];
            const shown = shownSessions(this.projects.get(session.root)?.layouts ?? null).has(id);
            return [{ root: session.root, sessionId: id, title: session.title, process, background: !shown }];
          }),
        ),
      close: (keep?: string[]) => this.#reply('windows.close', [keep ?? []], () => null),
      quit: () => this.#reply('windows.quit', [], () => null),
      openSaved: (root: string) =>
        this.#reply<ProjectDTO>('windows.openSaved', [root], () => {
          const project = this.#existing(root);
          if (!project) throw new GatewayError('NOT_FOUND', `${root}: folder not found`);
          return this.#dto(project);
        }),
    },

    conversations: {
      list: (root: string, agentId: string) =>
        this.#reply<ConversationSummary[]>('conversations.list', [root, agentId], () => {
          this.#agent(this.#project(root), agentId);
          return this.conversations.list(root, agentId);
        }),
      read: (root: string, conversationId: string) =>
        this.#reply<ConversationDTO>('conversations.read', [root, conversationId], () => {
          this.#project(root);
          return this.conversations.read(root, conversationId);
        }),
    },

    profiles: {
      detect: () => this.#reply<ProfileDetection[]>('profiles.detect', [], () => BUILTIN_PROFILES.map((profile) => this.#detect(profile))),
      list: () => this.#reply('profiles.list', [], () => this.#savedProfiles),
      save: (profiles: Profile[]) =>
        this.#reply('profiles.save', [profiles], () => {
          profiles.forEach((profile, index) => {
            const misfit = shellMisfit(profile);
            if (misfit) throw new GatewayError('INVALID', `${profile.name || profile.id}: Command: ${misfit}`, { field: `profiles[${index}].command`, label: 'Command' });
            if (profile.enabled !== false && profile.command && !this.#options.installed.includes(profile.command)) {
              // As the backend: the profile by its name, the field by the editor's label.
              const field = `profiles[${index}].command`;
              const message = `${profile.name || profile.id}: Command: '${profile.command}' was not found on the PATH`;
              throw new GatewayError('INVALID', message, { field, label: 'Command' });
            }
          });
          // Like the backend (`profiles_to_store`): an unticked built-in left as the catalogue has it is not written.
          const stored = profiles.filter((p) => p.enabled !== false || !isUntouchedBuiltin(p));
          this.#savedProfiles = structuredClone(stored);
          this.#options.firstRun = false;
          return stored;
        }),
      test: (profile: Profile) => this.#reply<ProfileDetection>('profiles.test', [profile], () => this.#detect(profile)),
      templates: () => this.#reply<ProfileTemplate[]>('profiles.templates', [], () => structuredClone(PROFILE_TEMPLATES)),
    },

    projects: {
      recent: () => this.#reply('projects.recent', [], () => this.#options.recent),
      create: (root: string, name?: string) =>
        this.#reply<ProjectDTO>('projects.create', name === undefined ? [root] : [root, name], () => {
          if (this.#options.readOnly.includes(root)) {
            throw new GatewayError('NOT_WRITABLE', `folder is not writable: ${root}`);
          }
          const project = emptyProject(root, name ?? basename(root), this.#id('n'));
          this.projects.set(root, project);
          return this.#dto(project);
        }),
      open: (root: string) =>
        this.#reply<ProjectDTO>('projects.open', [root], () => {
          const project = this.#existing(root);
          if (!project) throw new GatewayError('NOT_FOUND', `no IdeA project in ${root}`);
          return this.#dto(project);
        }),
      close: (root: string) => this.#reply('projects.close', [root], () => null),
      pickFolder: () => this.#reply('projects.pickFolder', [], () => this.#options.pickedFolder),
    },

    layout: {
      edit: (root: string, op: LayoutOp) =>
        this.#reply<LayoutDoc>('layout.edit', [root, op], () => {
          const project = this.#project(root);
          const doc = this.#layoutsOf(project);
          const before = shownSessions(doc);
          const history = this.#history.get(root) ?? { undo: [], redo: [] };
          this.#history.set(root, history);
          let next = doc;
          if (op.kind === 'undo' || op.kind === 'redo') {
            const from = op.kind === 'undo' ? history.undo : history.redo;
            const to = op.kind === 'undo' ? history.redo : history.undo;
            const previous = from.pop();
            if (previous) {
              to.push(doc);
              next = previous;
            }
          } else if (isNamedOp(op)) {
            next = applyNamedOp(doc, op, () => this.#id('n'));
          } else {
            const newId = () => this.#id('n');
            next = mapActiveTree(doc, (tree) => applyGridOp(tree, op, newId) ?? applyOp(tree, op, newId));
            if (op.kind !== 'move') {
              history.undo.push(doc);
              history.redo = [];
            }
          }
          project.layouts = next;
          if (next !== doc) this.#emit({ type: 'layoutChanged', root, layouts: next });
          this.#settleSessions(project, before, op.kind === 'close' && !op.keep ? (op.kill ? 'kill' : 'close') : null);
          return next;
        }),
      showSession: (root: string, sessionId: string, nodeId: string) =>
        this.#reply<LayoutDoc>('layout.showSession', [root, sessionId, nodeId], () => {
          const project = this.#project(root);
          const doc = this.#layoutsOf(project);
          this.#leaf(doc, nodeId);
          const session = this.sessions.get(sessionId);
          if (!session || session.root !== root) throw new GatewayError('NOT_FOUND', `no session ${sessionId} in this project`);
          const before = shownSessions(doc);
          const cleared = mapEveryTree(doc, (leaf) => (leaf.session === sessionId && leaf.id !== nodeId ? { id: leaf.id } : leaf));
          const shown: LeafNode = { id: nodeId, session: sessionId };
          if (session.agentId) {
            shown.agent = session.agentId;
            if (session.alive) shown.agentWasRunning = true;
          }
          project.layouts = withLeaf(cleared, shown);
          this.#emit({ type: 'layoutChanged', root, layouts: project.layouts });
          this.#settleSessions(project, before, null);
          return project.layouts;
        }),
      startFresh: (root: string) =>
        this.#reply<FreshStart>('layout.startFresh', [root], () => {
          const project = this.#project(root);
          const problem = project.problems.find((p) => p.recovery === 'startFresh');
          if (!problem) throw new GatewayError('INVALID', 'layouts.json is readable: nothing to recover');
          project.problems = project.problems.filter((p) => p !== problem);
          const layouts = this.#layoutsOf(project);
          this.#emit({ type: 'problemResolved', root, file: problem.file });
          this.#emit({ type: 'layoutChanged', root, layouts });
          return { layouts, backup: `${problem.file}.bak` };
        }),
    },

    settings: {
      get: () => this.#reply<Settings>('settings.get', [], () => this.#settings),
      update: (patch: SettingsPatch) =>
        this.#reply<Settings>('settings.update', [patch], () => {
          const next = structuredClone(this.#settings) as unknown as Record<string, Record<string, unknown>>;
          for (const [section, values] of Object.entries(patch)) {
            if (!(section in next) || typeof values !== 'object' || values === null) {
              throw new GatewayError('INVALID', `settings.${section}: cannot be changed here`);
            }
            for (const [key, value] of Object.entries(values as Record<string, unknown>)) {
              if (!(key in next[section])) throw new GatewayError('INVALID', `settings.${section}.${key}: unknown setting`);
              const bounds = SETTING_BOUNDS[`${section}.${key}`];
              if (bounds && (typeof value !== 'number' || !Number.isInteger(value) || value < bounds[0] || value > bounds[1])) {
                const label = SETTING_LABELS[`${section}.${key}`];
                throw new GatewayError('INVALID', `${label ?? `settings.${section}.${key}`}: must be an integer from ${bounds[0]} to ${bounds[1]}`, {
                  field: `settings.${section}.${key}`,
                  ...(label ? { label } : {}),
                });
              }
              next[section][key] = value;
            }
          }
          this.#settings = next as unknown as Settings;
          return this.#settings;
        }),
    },

    agents: {
      list: (root: string) => this.#reply<AgentDTO[]>('agents.list', [root], () => this.#project(root).agents.map((a) => ({ ...a }))),
      create: (root: string, input: AgentInput) =>
        this.#reply<AgentDTO>('agents.create', [root, input], () => {
          const project = this.#project(root);
          if (!input.name.trim()) throw new GatewayError('INVALID', 'name is required');
          this.#offered(input.profileId);
          const agent: AgentDTO = {
            agentId: this.#id('a'),
            name: input.name,
            mdPath: `agents/${slug(input.name)}.md`,
            profileId: input.profileId,
            synchronized: false,
            skills: [],
            running: false,
            activity: 'stopped',
            queueDepth: 0,
          };
          project.agents.push(agent);
          this.#personas.set(agent.agentId, input.persona);
          return agent;
        }),
      update: (root: string, agentId: string, input: AgentChange) =>
        this.#reply<AgentDTO>('agents.update', [root, agentId, input], () => {
          const agent = this.#agent(this.#project(root), agentId);
          const onDisk = this.#personas.get(agentId) ?? '';
          if (input.persona !== undefined && input.personaBase !== undefined && input.personaBase !== onDisk) {
            throw new GatewayError('CHANGED_ON_DISK', `agents/${agentId}.md changed on disk since it was opened`, {
              field: 'persona',
              onDisk,
            });
          }
          if (input.profileId !== undefined) this.#offered(input.profileId);
          if (input.name !== undefined) agent.name = input.name;
          if (input.profileId !== undefined) agent.profileId = input.profileId;
          if (input.persona !== undefined) this.#personas.set(agentId, input.persona);
          return agent;
        }),
      delete: (root: string, agentId: string) =>
        this.#reply('agents.delete', [root, agentId], () => {
          const project = this.#project(root);
          project.agents = project.agents.filter((a) => a.agentId !== agentId);
          return null;
        }),
      persona: (root: string, agentId: string) =>
        this.#reply('agents.persona', [root, agentId], () => this.#personas.get(agentId) ?? ''),
      launch: (root: string, agentId: string, nodeId: string, cols: number, rows: number) =>
        this.#reply<LaunchResult>('agents.launch', [root, agentId, nodeId, cols, rows], () =>
          this.#launch(this.#project(root), agentId, nodeId),
        ),
      ipc: (root: string, agentId: string) =>
        this.#reply<IpcMatrix | null>('agents.ipc', [root, agentId], () => {
          this.#agent(this.#project(root), agentId);
          return this.#ipc.get(agentId) ?? null;
        }),
      setIpc: (root: string, agentId: string, matrix: IpcMatrix | null) =>
        this.#reply<IpcMatrix | null>('agents.setIpc', [root, agentId, matrix], () => {
          this.#agent(this.#project(root), agentId);
          const stored = normalizeMatrix(matrix);
          if (stored) this.#ipc.set(agentId, stored);
          else this.#ipc.delete(agentId);
          return stored;
        }),
      // hot swap of profiles (issue 10 item 6)
      swapProfile: (root: string, agentId: string, profileId: string, size?: TerminalSize) =>
        this.#reply<SwapResult>('agents.swapProfile', size === undefined ? [root, agentId, profileId] : [root, agentId, profileId, size], () =>
          this.#swapProfile(this.#project(root), agentId, profileId),
        ),
    },

    terminals: {
      openShell: (root: string, nodeId: string, cols: number, rows: number) =>
        this.#reply<ShellResult>('terminals.openShell', [root, nodeId, cols, rows], () => {
          const project = this.#project(root);
          const doc = this.#layoutsOf(project);
          this.#leaf(doc, nodeId);
          const before = shownSessions(doc);
          const session = this.#spawn(project.root, 'shell', `Shell ${this.#count('shell')}`, '$ ');
          session.sizes = [{ at: 0, cols, rows }];
          project.layouts = withLeaf(doc, { id: nodeId, session: session.sessionId });
          this.#emit({ type: 'sessionStarted', root, session: sessionDto(session) });
          this.#emit({ type: 'layoutChanged', root, layouts: project.layouts });
          this.#settleSessions(project, before, null);
          return { sessionId: session.sessionId, layouts: project.layouts };
        }),
      attach: (sessionId: string) =>
        this.#reply<AttachResult>('terminals.attach', [sessionId], () => {
          const session = this.sessions.get(sessionId);
          if (!session) return { scrollback: '', end: 0, alive: false, exitCode: null };
          this.#attached.add(sessionId);
          const owner = session.agentId ? this.#agentIn(session.root, session.agentId) : undefined;
          // A delivery still pending for this session's agent is offered to the new view.
          const turn = session.agentId ? this.#turns.get(session.agentId) : undefined;
          if (turn && !turn.delivered) this.#offer(turn, session);
          else if (owner?.agent.activity === 'starting') this.#settled(owner.project, owner.agent);
          const answer: AttachResult = { scrollback: session.scrollback, end: session.scrollback.length, alive: session.alive, exitCode: session.exitCode };
          if (session.sizes) answer.sizes = session.sizes;
          return answer;
        }),
      write: (sessionId: string, seq: number, data: string, ticket?: string) =>
        this.#reply('terminals.write', ticket === undefined ? [sessionId, seq, data] : [sessionId, seq, data, ticket], () => {
          if (this.#options.echo) this.#echo(sessionId, data);
          return null;
        }),
      resize: (sessionId: string, cols: number, rows: number) =>
        this.#reply('terminals.resize', [sessionId, cols, rows], () => {
          const session = this.sessions.get(sessionId);
          if (!session?.alive) throw new GatewayError('NOT_FOUND', `no running session ${sessionId}`);
          if (session.sizes) session.sizes = [...session.sizes.filter((m) => m.at < session.scrollback.length), { at: session.scrollback.length, cols, rows }];
          return null;
        }),
      kill: (sessionId: string) =>
        this.#reply('terminals.kill', [sessionId], () => {
          const session = this.sessions.get(sessionId);
          if (!session) throw new GatewayError('NOT_FOUND', `no session ${sessionId}`);
          if (session.alive) this.#end(session, KILLED_EXIT_CODE);
          return null;
        }),
      ack: (sessionId: string, chars: number) => this.#reply('terminals.ack', [sessionId, chars], () => null),
      ackMany: (acks: Record<string, number>) => this.#reply('terminals.ackMany', [acks], () => null),
      detach: (sessionId: string) =>
        this.#reply('terminals.detach', [sessionId], () => {
          this.#attached.delete(sessionId);
          // The view went away before acknowledging: the headless portal types it instead.
          const session = this.sessions.get(sessionId);
          const turn = session?.agentId ? this.#turns.get(session.agentId) : undefined;
          if (session && turn && !turn.delivered) this.#typeHeadless(turn, session);
          return null;
        }),
    },
  };

  /** One bridge call: recorded, answered a microtask later with a JSON envelope. */
  async #reply<T>(method: string, args: unknown[], body: () => T): Promise<BridgeReply<T>> {
    this.calls.push({ method, args: overTheWire(args) });
    await Promise.resolve();
    const failure = this.#failures.get(method)?.shift();
    if (failure) return errorReply(failure);
    try {
      return { ok: overTheWire(body() ?? null) as T };
    } catch (error) {
      return errorReply(asGatewayError(error));
    }
  }

  #launch(project: MockProject, agentId: string, nodeId: string): LaunchResult {
    const agent = this.#agent(project, agentId);
    const doc = this.#layoutsOf(project);
    this.#leaf(doc, nodeId);
    const before = shownSessions(doc);
    const running = agent.running && agent.sessionId ? this.sessions.get(agent.sessionId) : undefined;
    let session: MockSession;
    if (running?.alive) {
      const elsewhere = leaves(activeRoot(doc)).find((l) => l.session === running.sessionId && l.id !== nodeId);
      if (elsewhere) {
        throw new GatewayError('AGENT_ALREADY_RUNNING', `${agent.name} is already running in another cell`, { nodeId: elsewhere.id });
      }
      session = running;
    } else {
      const profile = this.#savedProfiles.find((p) => p.id === agent.profileId);
      if (!profile || !this.#options.installed.includes(profile.command)) {
        throw new GatewayError('COMMAND_NOT_FOUND', `command not found: ${profile?.command ?? agent.profileId}`);
      }
      session = this.#spawn(project.root, 'agent', agent.name, `${profile.name} — ${agent.name}\r\n`, agentId);
      agent.running = true;
      agent.sessionId = session.sessionId;
      agent.activity = 'starting';
      this.#emit({ type: 'sessionStarted', root: project.root, session: sessionDto(session) });
      this.#emit({ type: 'agentStateChanged', root: project.root, agentId, state: 'running', sessionId: session.sessionId });
      this.#emitActivity(project.root, agent);
      // The launch settles when a view attaches (the CLI would print its prompt), or soon anyway.
      setTimeout(() => this.#settled(project, agent), LAUNCH_SETTLE_MS);
    }
    project.layouts = withLeaf(doc, { id: nodeId, session: session.sessionId, agent: agentId, agentWasRunning: true });
    this.#emit({ type: 'layoutChanged', root: project.root, layouts: project.layouts });
    this.#settleSessions(project, before, null);
    return { sessionId: session.sessionId, reattached: session === running, layouts: project.layouts };
  }

  /** Unticks a saved profile, as Profiles… would (tests). */
  untick(profileId: string): void {
    this.#savedProfiles = this.#savedProfiles.map((p) => (p.id === profileId ? { ...p, enabled: false } : p));
  }

  /** As the backend checks a profile an agent is given: saved and ticked (`enabled` not false). */
  #offered(profileId: string): void {
    if (!this.#savedProfiles.some((p) => p.id === profileId && p.enabled !== false)) {
      throw new GatewayError('INVALID', `unknown profile '${profileId}'`, { field: 'profileId' });
    }
  }

  /**
   * Hot swap (issue 10 item 6), as the backend does it: refusals first (unknown or same
   * profile, a command not installed: nothing stops), then the live session ends and the agent
   * relaunches under the new profile in the cell of the active layout that showed it (in no
   * cell when none did). With no live session only the profile changes.
   */
  #swapProfile(project: MockProject, agentId: string, profileId: string): SwapResult {
    const agent = this.#agent(project, agentId);
    const profile = this.#savedProfiles.find((p) => p.id === profileId);
    if (!profile) throw new GatewayError('INVALID', `unknown profile '${profileId}'`, { field: 'profileId' });
    if (profile.id === agent.profileId) throw new GatewayError('INVALID', `${agent.name} already uses ${profile.name}`, { field: 'profileId' });
    if (!this.#options.installed.includes(profile.command)) {
      throw new GatewayError('COMMAND_NOT_FOUND', `command not found: ${profile.command} (${agent.name} keeps its profile and its session)`);
    }
    const previousProfileId = agent.profileId;
    const conversationId = MockConversations.pairId(USER_PARTY, agentId);
    const found = agent.running && agent.sessionId ? this.sessions.get(agent.sessionId) : undefined;
    const live = found?.alive ? found : undefined;
    const nodeId = live ? leaves(activeRoot(this.#layoutsOf(project))).find((l) => l.session === live.sessionId)?.id : undefined;
    if (live) this.#end(live, KILLED_EXIT_CODE);
    agent.profileId = profileId;
    if (!live) return { agent: { ...agent }, previousProfileId, conversationId, relaunched: false };
    if (nodeId !== undefined) {
      const launched = this.#launch(project, agentId, nodeId);
      return { agent: { ...agent }, previousProfileId, conversationId, relaunched: true, sessionId: launched.sessionId, nodeId, layouts: launched.layouts };
    }
    const session = this.#spawn(project.root, 'agent', agent.name, `${profile.name} — ${agent.name}\r\n`, agentId);
    agent.running = true;
    agent.sessionId = session.sessionId;
    agent.activity = 'idle';
    this.#emit({ type: 'sessionStarted', root: project.root, session: sessionDto(session) });
    this.#emit({ type: 'agentStateChanged', root: project.root, agentId, state: 'running', sessionId: session.sessionId });
    this.#emitActivity(project.root, agent);
    return { agent: { ...agent }, previousProfileId, conversationId, relaunched: true, sessionId: session.sessionId };
  }

  /** `app.info()` starts a page: its earlier terminal views are dropped. */
  #info(): string {
    this.#attached.clear();
    return this.#options.view;
  }

  /** One ticket into `target`'s mailbox (by id or case-insensitive name). */
  #enqueue(project: MockProject, from: string, target: string, task: string, kind: DelegationKind): SendResult {
    const agent = project.agents.find((a) => a.agentId === target || a.name.toLowerCase() === target.toLowerCase());
    if (!agent) return { agentId: target, error: { code: 'NOT_FOUND', message: `no agent ${target}` } };
    const sender = from === USER_PARTY ? { name: 'human', matrix: null } : { name: this.#nameOf(from), matrix: this.#ipc.get(from) ?? null };
    const refused = forbiddenBy(sender, { name: agent.name, matrix: this.#ipc.get(agent.agentId) ?? null }, 'SPAWN');
    if (refused) return { agentId: agent.agentId, error: { code: 'FORBIDDEN', message: refused } };
    const mailbox = this.#mailboxes.get(agent.agentId) ?? [];
    this.#mailboxes.set(agent.agentId, mailbox);
    if (mailbox.length >= this.#options.inboxCapacity) {
      return { agentId: agent.agentId, error: { code: 'INBOX_FULL', message: `${agent.name}'s inbox is full (${mailbox.length} waiting)` } };
    }
    const ticket: MockTicket = { ticket: `t${this.#count('ticket')}`, root: project.root, from, to: agent.agentId, kind, task, state: 'queued', delivered: false };
    this.tickets.set(ticket.ticket, ticket);
    mailbox.push(ticket);
    this.#emit({ type: 'delegation', root: project.root, ticket: ticket.ticket, from, to: agent.agentId, kind, state: 'queued' });
    if (!this.#startNext(project, agent)) this.#emitActivity(project.root, agent);
    return { agentId: agent.agentId, ticket: ticket.ticket };
  }

  /** The agent's launch settled: it is ready for its first turn. */
  #settled(project: MockProject, agent: AgentDTO): void {
    if (agent.activity !== 'starting' || !agent.running) return;
    agent.activity = 'idle';
    if (!this.#startNext(project, agent)) this.#emitActivity(project.root, agent);
  }

  #agentIn(root: string, agentId: string): { project: MockProject; agent: AgentDTO } | undefined {
    const project = this.projects.get(root);
    const agent = project?.agents.find((a) => a.agentId === agentId);
    return project && agent ? { project, agent } : undefined;
  }

  /** Starts the agent's next turn if it runs, is free and has mail; true when one started. */
  #startNext(project: MockProject, agent: AgentDTO): boolean {
    const mailbox = this.#mailboxes.get(agent.agentId) ?? [];
    if (!agent.running || agent.activity === 'starting' || this.#turns.has(agent.agentId) || mailbox.length === 0) return false;
    const turn = mailbox.shift()!;
    turn.state = 'active';
    this.#turns.set(agent.agentId, turn);
    this.conversations.append(turn.root, turn.from, turn.to, 'prompt', turn.task);
    agent.activity = 'busy';
    this.#emitActivity(project.root, agent, turn.ticket);
    this.#emit({ type: 'delegation', root: project.root, ticket: turn.ticket, from: turn.from, to: turn.to, kind: turn.kind, state: 'active' });
    const session = agent.sessionId ? this.sessions.get(agent.sessionId) : undefined;
    if (session && this.#attached.has(session.sessionId)) this.#offer(turn, session);
    else if (session) this.#typeHeadless(turn, session);
    return true;
  }

  /** `delegationReady` to this window's view, which types it through its write portal. */
  #offer(turn: MockTicket, session: MockSession): void {
    const profile = this.#savedProfiles.find((p) => p.id === this.#agentAnywhere(turn.to).agent.profileId);
    const event: PushEvent = {
      type: 'delegationReady',
      root: turn.root,
      agentId: turn.to,
      sessionId: session.sessionId,
      view: this.#options.view,
      ticket: turn.ticket,
      text: this.#deliveredText(turn),
      lineDirty: this.dirtyLines.has(session.sessionId),
    };
    if (typeof profile?.submitSequence === 'string') event.submitSequence = profile.submitSequence;
    if (typeof profile?.submitDelayMs === 'number') event.submitDelayMs = profile.submitDelayMs;
    this.#emit(event);
  }

  /**
   * No view shows the session: the services' headless portal types the text itself, once the
   * reported human line is clean (a dirty one waits for a view to report it clean, or to attach).
   */
  #typeHeadless(turn: MockTicket, session: MockSession): void {
    if (this.dirtyLines.has(session.sessionId)) return;
    session.scrollback += `${this.#deliveredText(turn)}\r\n`;
    this.#delivered(turn);
  }

  #delivered(turn: MockTicket): void {
    turn.delivered = true;
    const after = this.#options.autoReplyMs;
    if (after === null) return;
    setTimeout(() => {
      if (this.#turns.get(turn.to) === turn) this.#endTurn(turn, 'done', undefined, `Done: ${turn.task}`);
    }, after);
  }

  /** Ends a turn; `said` (its reply, or an ERROR's context) goes into the pair's log. */
  #endTurn(turn: MockTicket, state: 'done' | 'failed', reason?: string, said?: string): void {
    turn.state = state;
    this.#turns.delete(turn.to);
    if (said !== undefined) this.conversations.append(turn.root, turn.to, turn.from, 'response', said);
    const { project, agent } = this.#agentAnywhere(turn.to);
    delete agent.blockedOn;
    const event: PushEvent = { type: 'delegation', root: turn.root, ticket: turn.ticket, from: turn.from, to: turn.to, kind: turn.kind, state };
    if (reason !== undefined) event.reason = reason;
    this.#emit(event);
    if (agent.activity === 'busy' || agent.activity === 'waiting' || agent.activity === 'blocked') agent.activity = 'idle';
    if (!this.#startNext(project, agent)) this.#emitActivity(project.root, agent);
  }

  /** Text the portal types: the IdeA prefix, the task on one line, for an ask the reply instruction. */
  #deliveredText(turn: MockTicket): string {
    const requester = turn.from === 'user' ? 'user' : this.#nameOf(turn.from);
    const task = turn.task.replace(/\s*[\r\n]+\s*/g, ' ').trim();
    const id = turn.ticket;
    const answer = turn.kind === 'ask' ? ` (answer with idea_reply, ticket ${id}, or: idea reply --ticket ${id} "…")` : '';
    return `[IdeA · task from ${requester} · ticket ${id}] ${task}${answer}`;
  }

  #emitActivity(root: string, agent: AgentDTO, ticket?: string): void {
    agent.queueDepth = this.#mailboxes.get(agent.agentId)?.length ?? 0;
    const event: PushEvent = { type: 'agentActivity', root, agentId: agent.agentId, activity: agent.activity, queueDepth: agent.queueDepth };
    if (ticket !== undefined) event.ticket = ticket;
    if (agent.activity === 'blocked' && agent.blockedOn) event.blockedOn = agent.blockedOn;
    this.#emit(event);
  }

  #nameOf(agentId: string): string {
    for (const project of this.projects.values()) {
      const agent = project.agents.find((a) => a.agentId === agentId);
      if (agent) return agent.name;
    }
    return agentId;
  }

  #agentAnywhere(agentId: string): { project: MockProject; agent: AgentDTO } {
    for (const project of this.projects.values()) {
      const agent = project.agents.find((a) => a.agentId === agentId);
      if (agent) return { project, agent };
    }
    throw new GatewayError('NOT_FOUND', `no agent ${agentId}`);
  }

  /**
   * After a layout change: sessions that left the layout because their cell was closed are
   * killed when they are shells (an agent detaches); ended sessions no cell shows are released.
   */
  /**
   * After an edit that showed `before`: a closed cell's shell is killed at once (`kill`) or once
   * the close grace has passed unless a cell shows it again (`close`); agents and everything an
   * edit hides otherwise keep running; ended sessions no cell shows are released.
   */
  #settleSessions(project: MockProject, before: Set<string>, closing: 'close' | 'kill' | null): void {
    const after = shownSessions(project.layouts);
    for (const sessionId of before) {
      const session = this.sessions.get(sessionId);
      if (!session || after.has(sessionId)) continue;
      if (closing === 'kill' && session.alive && session.kind === 'shell') this.#end(session, KILLED_EXIT_CODE);
      else if (closing === 'close' && session.alive && session.kind === 'shell') this.#doom(project, session);
      else if (!session.alive) this.#release(session);
    }
  }

  #doom(project: MockProject, session: MockSession): void {
    const { root, sessionId } = session;
    clearTimeout(this.#pendingKills.get(sessionId));
    this.#pendingKills.set(
      sessionId,
      setTimeout(() => {
        this.#pendingKills.delete(sessionId);
        if (session.alive && !shownSessions(project.layouts).has(sessionId)) this.#end(session, KILLED_EXIT_CODE);
      }, CLOSE_GRACE_MS),
    );
    this.#emit({ type: 'killPending', root, sessionId, graceMs: CLOSE_GRACE_MS });
  }

  #end(session: MockSession, exitCode: number | null): void {
    session.alive = false;
    session.exitCode = exitCode;
    const { root, sessionId } = session;
    this.#emit({ type: 'sessionExited', root, sessionId, exitCode });
    const project = this.projects.get(root);
    const agent = project?.agents.find((a) => a.sessionId === sessionId);
    if (agent) {
      agent.running = false;
      agent.activity = 'stopped';
      delete agent.blockedOn;
      for (const escalation of [...this.escalations.values()].filter((e) => e.agentId === agent.agentId)) {
        this.escalations.delete(escalation.ticket);
        this.#emit({ type: 'escalationResolved', root, ticket: escalation.ticket, choice: null });
      }
      this.#emit({ type: 'agentStateChanged', root, agentId: agent.agentId, state: 'stopped', sessionId });
      const turn = this.#turns.get(agent.agentId);
      if (turn) this.#endTurn(turn, 'failed', 'NO_REPLY');
      else this.#emitActivity(root, agent);
    }
    this.#attached.delete(sessionId);
    if (!shownSessions(project?.layouts ?? null).has(sessionId)) this.#release(session);
  }

  #release(session: MockSession): void {
    this.sessions.delete(session.sessionId);
    this.#emit({ type: 'sessionReleased', root: session.root, sessionId: session.sessionId });
  }

  #spawn(root: string, kind: SessionKind, title: string, banner: string, agentId?: string): MockSession {
    const sessionId = this.#id('s');
    const session: MockSession = { sessionId, kind, alive: true, exitCode: null, title, root, scrollback: banner };
    if (agentId !== undefined) {
      session.agentId = agentId;
      session.sandbox = this.permissions.sessionSandbox(root, agentId);
    }
    this.sessions.set(sessionId, session);
    return session;
  }

  #echo(sessionId: string, data: string): void {
    const session = this.sessions.get(sessionId);
    if (!session?.alive) return;
    const text = data.replace(/\r/g, '\r\n$ ').replace(/\x7f/g, '\b \b');
    const offset = session.scrollback.length;
    session.scrollback += text;
    setTimeout(() => this.#deliver({ output: { [sessionId]: text }, offsets: { [sessionId]: offset } }), 0);
  }

  /** Queues an event; the queue goes out as one batch on the next tick (the push pump's way). */
  #workspaceWire(): WorkspaceWire {
    const labels: Record<string, string> = {};
    for (const w of this.windows) for (const root of w.tabs) labels[root] = root.split('/').filter(Boolean).pop() ?? root;
    return { windows: structuredClone(this.windows), labels };
  }

  #emitWorkspace(): void {
    this.#emit({ type: 'workspaceChanged', ...this.#workspaceWire() });
  }

  #emit(event: PushEvent): void {
    this.#outbox.push(overTheWire(event));
    if (this.#outbox.length > 1) return;
    setTimeout(() => {
      const events = this.#outbox;
      this.#outbox = [];
      this.#deliver({ events });
    }, 0);
  }

  /** The project at `root`; a plain folder (no `.ideai/`) answers `NOT_FOUND` / `notAProject`. */
  #existing(root: string): MockProject | undefined {
    const project = this.projects.get(root);
    if (!project && this.#options.plainFolders?.includes(root)) {
      throw new GatewayError('NOT_FOUND', `not an IdeA project yet: ${root}/.ideai is missing`, { root, reason: 'notAProject' });
    }
    return project;
  }

  #dto(project: MockProject): ProjectDTO {
    const sessions = [...this.sessions.values()].filter((s) => s.root === project.root).map(sessionDto);
    return { ...project, sessions };
  }

  #project(root: string): MockProject {
    const project = this.projects.get(root);
    if (!project) throw new GatewayError('NOT_FOUND', `project not open: ${root}`);
    return project;
  }

  #layoutsOf(project: MockProject): LayoutDoc {
    if (!project.layouts) throw new GatewayError('CORRUPT_FILE', 'layouts.json could not be read');
    return project.layouts;
  }

  #leaf(doc: LayoutDoc, nodeId: string): LeafNode {
    const leaf = leaves(activeRoot(doc)).find((l) => l.id === nodeId);
    if (!leaf) throw new GatewayError('NOT_FOUND', `no cell ${nodeId}`);
    return leaf;
  }

  #agent(project: MockProject, agentId: string): AgentDTO {
    const agent = project.agents.find((a) => a.agentId === agentId);
    if (!agent) throw new GatewayError('NOT_FOUND', `no agent ${agentId}`);
    return agent;
  }

  #count(prefix: string): number {
    const next = (this.#counters.get(prefix) ?? 0) + 1;
    this.#counters.set(prefix, next);
    return next;
  }

  /** Fresh ids; node ids start at n100 so they never meet the `n1`… of test fixtures. */
  #id(prefix: 's' | 'n' | 'a'): string {
    const n = this.#count(`id:${prefix}`);
    return `${prefix}${prefix === 'n' ? 99 + n : n}`;
  }
}

/** Whether `profile`, ticked, is the built-in catalogue's as is. */
function isUntouchedBuiltin(profile: Profile): boolean {
  const builtin = BUILTIN_PROFILES.find((p) => p.id === profile.id);
  const canonical = (value: unknown): string =>
    JSON.stringify(value, (_key, v: unknown) =>
      v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
    );
  return builtin !== undefined && canonical({ ...profile, enabled: undefined }) === canonical(builtin);
}

/** What the bridge would deliver: the JSON round trip drops `undefined` and copies. */
function overTheWire<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function errorReply(error: GatewayError): BridgeReply<never> {
  return { error: { code: error.code, message: error.message, details: error.details } };
}

function sessionDto(session: MockSession): SessionDTO {
  const { sessionId, kind, agentId, alive, exitCode, title, sandbox } = session;
  return overTheWire({ sessionId, kind, agentId, alive, exitCode, title, sandbox });
}

/** Ids of the sessions some leaf of some layout of the document shows. */
function shownSessions(doc: LayoutDoc | null): Set<string> {
  const shown = new Set<string>();
  for (const layout of doc?.layouts ?? []) {
    for (const leaf of leaves(layout.tree.root)) if (leaf.session) shown.add(leaf.session);
  }
  return shown;
}

/** A copy of the document whose active layout's tree is `change(tree)`. */
function mapActiveTree(doc: LayoutDoc, change: (tree: LayoutNode) => LayoutNode): LayoutDoc {
  const next = structuredClone(doc);
  const layout = next.layouts.find((l) => l.id === next.activeId) ?? next.layouts[0];
  layout.tree.root = change(layout.tree.root);
  return next;
}

/** A copy of the document where every leaf of every layout is `change(leaf)`. */
function mapEveryTree(doc: LayoutDoc, change: (leaf: LeafNode) => LeafNode): LayoutDoc {
  const visit = (node: LayoutNode): LayoutNode => {
    switch (node.type) {
      case 'leaf':
        return { type: 'leaf', node: change(node.node) };
      case 'split':
        return { ...node, node: { ...node.node, children: node.node.children.map((c) => ({ ...c, node: visit(c.node) })) } };
      case 'grid':
        return { ...node, node: { ...node.node, cells: node.node.cells.map((c) => ({ ...c, node: visit(c.node) })) } };
    }
  };
  const next = structuredClone(doc);
  for (const layout of next.layouts) layout.tree.root = visit(layout.tree.root);
  return next;
}

/** A copy of the document with the active layout's leaf `leaf.id` replaced by `leaf`. */
function withLeaf(doc: LayoutDoc, leaf: LeafNode): LayoutDoc {
  const replace = (node: LayoutNode): LayoutNode => {
    switch (node.type) {
      case 'leaf':
        return node.node.id === leaf.id ? { type: 'leaf', node: leaf } : node;
      case 'split':
        return { ...node, node: { ...node.node, children: node.node.children.map((c) => ({ ...c, node: replace(c.node) })) } };
      case 'grid':
        return { ...node, node: { ...node.node, cells: node.node.cells.map((c) => ({ ...c, node: replace(c.node) })) } };
    }
  };
  return mapActiveTree(doc, replace);
}

function emptyProject(root: string, name: string, leafId: string): MockProject {
  return {
    root,
    name,
    agents: [],
    problems: [],
    layouts: {
      version: 1,
      activeId: 'L1',
      layouts: [{ id: 'L1', name: 'Default', kind: 'terminal', tree: { root: { type: 'leaf', node: { id: leafId } } } }],
    },
  };
}

/** Applies a layout op (contracts §3) to a tree; good enough for a mock. */
export function applyOp(root: LayoutNode, op: LayoutOp, newId: () => string): LayoutNode {
  const visit = (node: LayoutNode): LayoutNode | null => {
    if (node.type === 'leaf') {
      if (node.node.id !== ('nodeId' in op ? op.nodeId : '')) return node;
      if (op.kind === 'close') return null;
      if (op.kind === 'assign') {
        const leaf: LeafNode = { id: node.node.id };
        if (op.session) leaf.session = op.session;
        if (op.agent) leaf.agent = op.agent;
        return { type: 'leaf', node: leaf };
      }
      if (op.kind === 'split') {
        return {
          type: 'split',
          node: {
            id: newId(),
            direction: op.direction,
            children: [
              { node, weight: 1 },
              { node: { type: 'leaf', node: { id: newId() } }, weight: 1 },
            ],
          },
        };
      }
      return node;
    }
    if (node.type === 'split') {
      if (op.kind === 'resize' && 'weights' in op && node.node.id === op.nodeId) {
        return { ...node, node: { ...node.node, children: node.node.children.map((c, i) => ({ ...c, weight: op.weights[i] ?? c.weight })) } };
      }
      const children = node.node.children
        .map((c) => ({ ...c, node: visit(c.node) }))
        .filter((c): c is { node: LayoutNode; weight: number } => c.node !== null);
      if (children.length === 0) return null;
      if (children.length === 1) return children[0].node;
      return { ...node, node: { ...node.node, children } };
    }
    const cells = node.node.cells.map((c) => ({ ...c, node: visit(c.node) ?? { type: 'leaf', node: { id: newId() } } }));
    return { ...node, node: { ...node.node, cells } };
  };
  return visit(root) ?? { type: 'leaf', node: { id: newId() } };
}

function basename(path: string): string {
  const parts = path.replace(/[\\/]+$/, '').split(/[\\/]/);
  return parts[parts.length - 1] || path;
}

function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'agent';
}
