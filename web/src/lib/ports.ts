/**
 * What the UI needs from the backend, independent of the transport (docs/contracts.md §4).
 * Components receive a `Gateway` through context and never touch `window.pywebview`.
 * All DTOs are camelCase, exactly as they cross the bridge. A gateway method resolves with the
 * DTO or rejects with a `GatewayError`; how that travels (the `{ok}` / `{error}` envelope of the
 * pywebview bridge) is the adapter's business (`adapters/pywebview.ts`).
 */

// ---------------------------------------------------------------------------------------------
// DTOs

export interface Problem {
  file: string;
  message: string;
  /**
   * The one-click way out the UI offers: `startFresh` (an unreadable `layouts.json`: keep it
   * as `.bak` and write the fresh layout the project uses meanwhile, `layout.startFresh`).
   */
  recovery?: 'startFresh';
}

export interface AppInfo {
  version: string;
  dataDir: string;
  firstRun: boolean;
  platform: string;
  problems: Problem[];
  /** Project roots given on the command line (`--project`), opened at start-up. */
  startupProjects?: string[];
  /**
   * This window's view id. A `delegationReady` push names the view that must type it; every
   * other view of the session ignores it (docs/contracts.md §7.3).
   */
  view: string;
}

export interface ContextInjection {
  strategy: string;
  target?: string;
  flag?: string;
  var?: string;
  [extra: string]: unknown;
}

/** A declarative AI CLI profile (SPEC C4). Unknown keys are kept as they are. */
export interface Profile {
  id: string;
  name: string;
  /** A name looked up on the app's PATH or an absolute path; empty: the user's shell. */
  command: string;
  args: string[];
  /** Extra environment; values may hold `{projectRoot}`, `{agentRunDir}`, `{contextFile}`. */
  env?: Record<string, string>;
  contextInjection: ContextInjection;
  detect?: { args: string[]; timeoutMs: number };
  /** `{agentRunDir}` (default) or `{projectRoot}`. */
  cwdTemplate?: string;
  /** Arguments granting the CLI the project (e.g. `["--add-dir", "{projectRoot}"]`). */
  projectAccess?: { args: string[] };
  /** How the CLI resumes its own conversation: `--resume <id>`, or args holding `{resumeId}`. */
  session?: { assignFlag?: string; resumeFlag?: string; resumeArgs?: string[] };
  /** Headless (structured) adapter (contracts §10). */
  structured?: { protocol: StructuredProtocol; command?: string; args?: string[] };
  promptReadyPattern?: string;
  /** Texts that, on its screen, mean the CLI waits for its human (sign-in, folder trust): no task is typed then. */
  waitingScreens?: string[];
  submitSequence?: string;
  submitDelayMs?: number;
  /** How its terminal takes a typed task: `shell` gets it as the no-op `: '…'`; omitted: derived (contracts §7.2). */
  taskInput?: 'prompt' | 'shell';
  /** `false`: configured but not offered to agents (omitted when true). */
  enabled?: boolean;
  [extra: string]: unknown;
}

export type StructuredProtocol = 'acp' | 'claude-stream-json' | 'codex-exec';

/** `installed`; `missing`: no such command; `failed`: it could not run or exited non-zero; `timeout`. */
export type DetectionState = 'installed' | 'missing' | 'failed' | 'timeout';

export interface ProfileDetection {
  profile: Profile;
  installed: boolean;
  version: string | null;
  /** The fields below come with `profiles.detect` and `profiles.test` (contracts §4.1). */
  state?: DetectionState;
  /** The executable found (absolute), or null. */
  path?: string | null;
  /** What the detection command printed, or why it could not run (≤ 4,000 characters). */
  output?: string;
  exitCode?: number | null;
  /** The command installing a built-in CLI (`npm install -g @openai/codex`), or null. */
  install?: string | null;
}

/** A starting point for a custom profile ("Add profile…"). */
export interface ProfileTemplate {
  id: string;
  name: string;
  description: string;
  profile: Profile;
}

export interface RecentProject {
  root: string;
  name: string;
  lastOpenedMs: number;
}

/** Layout tree nodes use adjacent tagging: `{type, node}`. Unknown keys survive round trips. */
export interface LeafNode {
  id: string;
  session?: string;
  agent?: string;
  agentWasRunning?: boolean;
  [extra: string]: unknown;
}

export type SplitDirection = 'row' | 'column';

export interface WeightedChild {
  node: LayoutNode;
  weight: number;
}

export interface SplitNode {
  id: string;
  direction: SplitDirection;
  children: WeightedChild[];
  [extra: string]: unknown;
}

export interface GridCell {
  node: LayoutNode;
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
}

export interface GridNode {
  id: string;
  colWeights: number[];
  rowWeights: number[];
  cells: GridCell[];
  [extra: string]: unknown;
}

export type LayoutNode =
  | { type: 'leaf'; node: LeafNode }
  | { type: 'split'; node: SplitNode }
  | { type: 'grid'; node: GridNode };

export interface Layout {
  id: string;
  name: string;
  kind: string;
  tree: { root: LayoutNode };
  [extra: string]: unknown;
}

/** The whole `.ideai/layouts.json` document. */
export interface LayoutDoc {
  version: number;
  activeId: string;
  layouts: Layout[];
  [extra: string]: unknown;
}

export type LayoutOp =
  | { kind: 'split'; nodeId: string; direction: SplitDirection }
  /** `kill`: end its plain shell at once (the user confirmed); else only after the close grace. */
  | { kind: 'close'; nodeId: string; kill?: boolean; keep?: boolean }
  | { kind: 'resize'; nodeId: string; weights: number[] }
  | { kind: 'assign'; nodeId: string; session?: string; agent?: string }
  | { kind: 'undo' }
  | { kind: 'redo' }
  | GridLayoutOp
  | NamedLayoutOp;

// --- grid, presets and named layouts (issue 9 items 4–5; docs/contracts.md §3) ---

/** The layout's area in terminal character cells; feeds the backend's minimum cell size. */
export interface LayoutExtent {
  cols: number;
  rows: number;
}

export type LayoutPreset = '2x2' | '1+2' | '3-columns';

/** Tree ops of the active layout beyond split/close/resize/assign (undoable but `move`). */
export type GridLayoutOp =
  | { kind: 'split'; nodeId: string; direction: SplitDirection; extent: LayoutExtent }
  | { kind: 'merge'; nodeIds: string[] }
  | { kind: 'unmerge'; nodeId: string; extent?: LayoutExtent }
  | { kind: 'move'; nodeId: string; toNodeId: string }
  | { kind: 'preset'; preset: LayoutPreset; extent?: LayoutExtent }
  | { kind: 'balance'; nodeId?: string; extent?: LayoutExtent }
  | { kind: 'resize'; nodeId: string; colWeights?: number[]; rowWeights?: number[]; extent?: LayoutExtent };

/** Ops on the document's named layouts (not undone). */
export type NamedLayoutOp =
  | { kind: 'createLayout'; name: string; preset?: LayoutPreset }
  | { kind: 'renameLayout'; layoutId: string; name: string }
  | { kind: 'duplicateLayout'; layoutId: string; name?: string }
  | { kind: 'deleteLayout'; layoutId: string }
  | { kind: 'switchLayout'; layoutId: string };
// --- end grid, presets and named layouts ---

/**
 * What an agent is doing (docs/contracts.md §7.2, §8.4): `busy` from the start of a turn until
 * its end, `waiting` while a busy agent waits for the user (permission, input), `blocked` while
 * a busy agent reported being blocked on something (a BLOCKED_ON packet; its turn goes on).
 */
export type AgentActivity = 'starting' | 'idle' | 'busy' | 'waiting' | 'blocked' | 'stopped';

export interface AgentDTO {
  agentId: string;
  name: string;
  mdPath: string;
  profileId: string;
  synchronized: boolean;
  skills: string[];
  running: boolean;
  sessionId?: string;
  activity: AgentActivity;
  /** Tickets waiting in its mailbox behind the current turn. */
  queueDepth: number;
  /**
   * While `activity` is `blocked`: what it is blocked on (the BLOCKED_ON packet's context).
   * Kept from the `agentActivity` pushes; a backend may also send it in the DTO.
   */
  blockedOn?: string | null;
}

export interface AgentInput {
  name: string;
  persona: string;
  profileId: string;
}

/**
 * `agents.update` input: any of the fields, and `personaBase`, the persona text the new one was
 * edited from: the backend refuses with `CHANGED_ON_DISK` (details `{field: 'persona', onDisk}`)
 * when the file no longer holds it, and writes nothing.
 */
export type AgentChange = Partial<AgentInput> & { personaBase?: string };

export type SessionKind = 'shell' | 'agent';

/**
 * What the OS sandbox gives (docs/contracts.md §9): `enforced` (Landlock confines the file
 * rules), `degraded` (confined, but this kernel lacks something: `message` says what), `off`
 * (nothing posed, or no file class confined), `unsupported` (no OS sandbox here: the rules bind
 * only through the CLI's own settings).
 */
export type SandboxState = 'enforced' | 'degraded' | 'off' | 'unsupported';

export interface SandboxStatus {
  state: SandboxState;
  message: string;
}

/**
 * An agent session's sandbox: the status, `notes` (what binds only through the CLI's settings,
 * or not at all), `refused` (fail-closed: the permissions demand an OS sandbox this machine
 * cannot give, so the CLI was not run).
 */
export interface SessionSandbox extends SandboxStatus {
  notes: string[];
  refused: boolean;
  /**
   * What the CLI's needs open that the rules confine (the project lies in /tmp, which every
   * CLI may write): the cell then says "partly sandboxed". Absent or empty: nothing.
   */
  exposed?: string[];
}

/**
 * A PTY session the backend holds for a project: running, or ended but still shown in some
 * cell. A session in no cell ("detached") is listed too; the UI offers to show it again.
 */
export interface SessionDTO {
  sessionId: string;
  kind: SessionKind;
  /** For `kind: 'agent'`: the agent it runs. */
  agentId?: string;
  alive: boolean;
  exitCode: number | null;
  /** What to call it in the UI ("Show <title>"). */
  title: string;
  /** For an agent: how its permissions apply (absent for a shell). */
  sandbox?: SessionSandbox;
}

export interface ProjectDTO {
  root: string;
  name: string;
  agents: AgentDTO[];
  layouts: LayoutDoc | null;
  problems: Problem[];
  /** Every session of the project the backend still holds (see `SessionDTO`). */
  sessions: SessionDTO[];
}

/**
 * `terminals.openShell`: the new session, and the layout document in which the backend has
 * already put it into the cell (the UI sends no `assign` of its own).
 */
export interface ShellResult {
  sessionId: string;
  layouts: LayoutDoc;
}

/**
 * `agents.launch`: the session (`reattached` when the agent was running already, e.g.
 * detached), and the layout document in which the backend has already written the cell's
 * `session`, `agent` and `agentWasRunning: true` (the UI sends no `assign` of its own: a stale
 * one would erase `agentWasRunning`).
 */
export interface LaunchResult {
  sessionId: string;
  reattached: boolean;
  layouts: LayoutDoc;
}

/** From UTF-16 index `at` of a scrollback on, the PTY was `cols` × `rows` cells. */
export interface SizeMark {
  at: number;
  cols: number;
  rows: number;
}

export interface AttachResult {
  scrollback: string;
  /** Output offset (UTF-16 units since the session started) just after `scrollback`. */
  end: number;
  alive: boolean;
  exitCode: number | null;
  /**
   * The PTY sizes the scrollback was produced at, oldest first (`sizes[0].at === 0`); empty
   * or absent when unknown. A view replays the scrollback at those sizes, then fits its cell
   * (xterm.js reflows wrapped lines) — docs/adr/007-terminal-repaint.md.
   */
  sizes?: SizeMark[];
}

/** `layout.startFresh`: the layouts now in `layouts.json`, and where the broken file went. */
export interface FreshStart {
  layouts: LayoutDoc;
  backup: string;
}

/** The preferences the window edits (`settings.json` in the app data dir). */
export interface Settings {
  terminal: { fontSize: number; scrollbackLines: number };
  ui: { sidePanelWidth: number; sidePanelCollapsed: boolean };
}

/** A partial change of `Settings` (`settings.update`). */
export interface SettingsPatch {
  terminal?: Partial<Settings['terminal']>;
  ui?: Partial<Settings['ui']>;
}

/** One target's answer to `orchestration.send`: its ticket, or why its mailbox refused. */
export interface SendResult {
  agentId: string;
  ticket?: string;
  error?: { code: ErrorCode; message: string };
}

/**
 * The signals a context packet carries (seed 004, docs/contracts.md §8.2), in the seed's order.
 */
export const SIGNALS = ['SPAWN', 'RETURN', 'BLOCKED_ON', 'CHECKPOINT', 'HANDOFF', 'ESCALATE', 'ERROR'] as const;
export type Signal = (typeof SIGNALS)[number];

/** The zones a packet may name (`zone_access`). */
export const ZONES = ['kernel', 'project', 'personal'] as const;
export type Zone = (typeof ZONES)[number];

/**
 * An agent's access matrix (docs/contracts.md §8.3), the `ipc:` front matter of its persona.
 * A key left out restricts nothing; a list (even empty) restricts to what it names. Names are
 * agent names (case-insensitive), `human` for the user, `*` for anyone. The lists are strings
 * as they are on disk: a signal or zone the UI does not know is kept, not dropped.
 */
export interface IpcMatrix {
  receivesFrom?: string[];
  sendsTo?: string[];
  signals?: string[];
  zoneAccess?: string[];
}

/** One of an agent's pair conversations (`conversations.list`): `peer` null = the user. */
export interface ConversationSummary {
  id: string;
  peer: string | null;
  /** Number of turns in its log. */
  turns: number;
  /** When its last turn was logged (ms since the epoch); 0 for an empty log. */
  lastAtMs: number;
}

/** Who said a turn: an agent, or the user. */
export type TurnSource = { kind: 'agent'; agentId: string } | { kind: 'human' };

/** One line of a pair's `log.jsonl` (docs/contracts.md §8.1). */
export interface Turn {
  id: string;
  conversation: string;
  atMs: number;
  source: TurnSource;
  role: 'prompt' | 'response';
  text: string;
  /** A prompt's ticket: an ask (an answer awaited) or a message; absent in older logs. */
  ticketKind?: 'ask' | 'message';
}

/** `conversations.read`: the pair's turns, oldest first, and its `handoff.md` (if any). */
export interface ConversationDTO {
  turns: Turn[];
  handoff: string | null;
}

/**
 * An agent needs the user to decide (an ESCALATE packet): one of `options`, or a free answer.
 * `ticket` names the question (`orchestration.decide`); `task` is the agent's current task.
 */
export interface Escalation {
  root: string;
  ticket: string;
  agentId: string;
  options: string[];
  task?: string | null;
}

/** `permissions.json` (docs/contracts.md §1, §9): capabilities, effects, rules, policies. */
export const CAPABILITIES = ['read', 'write', 'delete', 'executeBash'] as const;
export type Capability = (typeof CAPABILITIES)[number];
export const EFFECTS = ['allow', 'ask', 'deny'] as const;
export type Effect = (typeof EFFECTS)[number];

/** One rule: file capabilities take `paths` (project-relative globs), `executeBash` `commands`. Unknown keys are kept. */
export interface PermissionRule {
  capability: Capability;
  effect: Effect;
  paths?: string[];
  commands?: string[];
  [extra: string]: unknown;
}

export interface PermissionPolicy {
  rules: PermissionRule[];
  fallback: Effect;
  [extra: string]: unknown;
}

/** The whole `.ideai/permissions.json`: project defaults and per-agent overrides (by agent id). */
export interface PermissionsDoc {
  version: number;
  projectDefaults: PermissionPolicy;
  agents?: Record<string, PermissionPolicy>;
  [extra: string]: unknown;
}

/** `permissions.get`: the document (`null`: nothing posed), what this machine's OS sandbox can do, the platform. */
export interface PermissionsInfo {
  document: PermissionsDoc | null;
  machine: SandboxStatus;
  platform: string;
  /** Why the OS cannot enforce file rules inside this project (it lies in /tmp…); empty: it can. */
  exposed: string[];
}

/** `permissions.test`: the decision, the rule that made it (`null`: the fallback of `origin`), and what the OS does. */
export interface PermissionTestResult {
  effect: Effect;
  /** One line: `deny — write deny secrets/** (project rule projectDefaults.rules[2])`. */
  explanation: string;
  origin: 'project' | 'agent';
  rule: { where: string; origin: 'project' | 'agent'; capability: Capability; effect: Effect; patterns: string[] } | null;
  /** `enforced`: the kernel decides this access at the agent's launch (`allowed` then says how). */
  os: { enforced: boolean; allowed: boolean | null; message: string };
  sandbox: SandboxStatus;
  /** The judged plan's lines on what the CLI's needs open that the rules confine. */
  exposed: string[];
}

/** A refusal IdeA knows of for an agent: its launch refused by the sandbox, or the CLI's own report. */
export interface Denial {
  source: 'sandbox' | 'cli';
  tool: string;
  target: string;
  message: string;
  atMs: number;
}

// ---------------------------------------------------------------------------------------------
// Pushes (Python → JS)

export type AgentState = 'running' | 'stopped';

/**
 * A turn starts: the view `view` (this window's, when it matches `AppInfo.view`) types `text`
 * into `sessionId` through its write portal once the human's line is empty, writing the text
 * and the submit with `terminals.write(…, ticket)`, then acknowledges with
 * `orchestration.delivered` as soon as the submit is written (docs/contracts.md §7.3).
 * `submitSequence` defaults to `"\r"`, `submitDelayMs` to 60 (applied by the UI). `lineDirty`:
 * the last human line state a portal reported for the session (`orchestration.humanLine`); a
 * view that saw no keys of its own then takes its line for not empty until Enter, Ctrl-C or
 * Ctrl-U (a missing `lineDirty` reads as `false`).
 */
export interface DelegationReady {
  root: string;
  agentId: string;
  sessionId: string;
  view: string;
  ticket: string;
  text: string;
  submitSequence?: string;
  submitDelayMs?: number;
  lineDirty: boolean;
  /** Texts that, on the CLI's screen, mean it waits for its human: not typed while one shows. */
  waitingScreens?: string[];
}

/** Where a ticket is: in the target's mailbox, its turn running, or ended. */
export type DelegationState = 'queued' | 'active' | 'done' | 'failed';

/**
 * `ask`: the requester waits for the reply (`idea_ask_agent`); `message`: fire and forget
 * (`idea_message_agent`, and the user's `orchestration.send`). Only an ask makes anyone wait.
 */
export type DelegationKind = 'ask' | 'message';

/** Who asked whom: `from` is an agent id or `'user'` (the window). */
export interface DelegationDTO {
  ticket: string;
  from: string;
  to: string;
  kind: DelegationKind;
  state: DelegationState;
  /** For `failed`: the error code (TIMEOUT, NO_REPLY, …). */
  reason?: string;
}

/**
 * Domain events of a push batch. `layoutChanged` follows any backend-side layout change
 * (launches and `openShell` included); `sessionReleased` means the backend forgot an ended
 * session that no cell shows: the UI drops every trace of it.
 */
export type PushEvent =
  | { type: 'problem'; root?: string; file: string; message: string; recovery?: 'startFresh' }
  /** The problem with `file` is gone (the user recovered it, maybe in another window). */
  | { type: 'problemResolved'; root?: string; file: string }
  | { type: 'layoutChanged'; root: string; layouts: LayoutDoc }
  | { type: 'sessionStarted'; root: string; session: SessionDTO }
  | { type: 'sessionExited'; root: string; sessionId: string; exitCode: number | null }
  | { type: 'sessionReleased'; root: string; sessionId: string }
  /** A closed cell's shell runs on hidden: killed in `graceMs` ms unless undo shows it again. */
  | { type: 'killPending'; root: string; sessionId: string; graceMs: number }
  | { type: 'agentStateChanged'; root: string; agentId: string; state: AgentState; sessionId?: string }
  /** `agents.json` was edited outside IdeA and read again: list the agents anew. */
  | { type: 'agentsChanged'; root: string }
  | ({ type: 'delegationReady' } & DelegationReady)
  | {
      type: 'agentActivity';
      root: string;
      agentId: string;
      activity: AgentActivity;
      queueDepth: number;
      ticket?: string;
      /** With `activity: 'blocked'`: what the agent is blocked on. */
      blockedOn?: string | null;
    }
  | ({ type: 'delegation'; root: string } & DelegationDTO)
  | ({ type: 'escalation' } & Escalation)
  /** The question was answered (here or in another window); `choice` null = withdrawn (its agent went away). */
  | { type: 'escalationResolved'; root: string; ticket: string; choice: string | null }
  | ({ type: 'headlessActivity' } & HeadlessEntry)
  /** Something refused the agent (its launch, or a tool call its CLI reported). */
  | { type: 'permissionDenied'; root: string; agentId: string; denial: Denial }
  // -- windows and tabs (issue 9, contracts §13)
  | ({ type: 'workspaceChanged' } & WorkspaceWire)
  /** The user closes this OS window: the page asks what it must, then `windows.close`/`quit`. */
  | { type: 'closeRequested'; windowId: string; quit: boolean };

// ---------------------------------------------------------------------------------------------
// Windows and tabs (issue 9, contracts §13)

/** One OS window of the workspace: its tabs (project roots) in order and the one shown. */
export interface WindowTabs {
  id: string;
  tabs: string[];
  activeRoot: string | null;
}

/** Every window's tabs, and a distinct label per open project root. */
export interface WorkspaceWire {
  windows: WindowTabs[];
  labels: Record<string, string>;
}

/** `windows.state()`: the workspace as seen from this window (`windowId`). */
export interface WorkspaceState extends WorkspaceWire {
  windowId: string;
}

/** A plain shell running a foreground process other than the shell (e.g. `sleep`). */
export interface BusySession {
  sessionId: string;
  process: string;
}

export interface LiveAgent {
  root: string;
  agentId: string;
}

/**
 * `windows.busyAtQuit()`: a plain shell of any window (shown in a cell, or detached:
 * `background`) running a foreground process other than the shell; quitting would kill it.
 */
export interface BusyShellAtQuit extends BusySession {
  root: string;
  /** As the sessions list names it (e.g. `bash 1`). */
  title: string;
  background: boolean;
}

export interface WindowsGateway {
  state(): Promise<WorkspaceState>;
  /** A new empty OS window; answers its id. */
  open(): Promise<string>;
  /** This page opened `root`: answers the window whose tab shows it (another one is focused). */
  placeTab(root: string): Promise<string>;
  /** Close the project's tab: its shells end, but `keep` (left in the background); agents run on. */
  closeTab(root: string, keep?: string[]): Promise<null>;
  activate(root: string | null): Promise<null>;
  /** Reorder within a window or move to window `windowId` at `index` (default: last). */
  moveTab(root: string, windowId: string, index?: number): Promise<null>;
  /** The missing tab `oldRoot` shows the project at `newRoot` (opened as `openSaved`, its saved shells reopened there). */
  relocate(oldRoot: string, newRoot: string): Promise<ProjectDTO>;
  dragStart(root: string): Promise<null>;
  /** The dragged tab (of any window) was dropped on this tab bar at gap `index` of its tabs as shown (the dragged one included). */
  dropTab(index: number): Promise<boolean>;
  /** This window's tab drag ended at a screen point (the backend prefers the real pointer's); a new window's id when dropped outside all. */
  dragEnd(screenX: number, screenY: number): Promise<string | null>;
  busy(sessionIds: string[]): Promise<BusySession[]>;
  liveAgents(): Promise<LiveAgent[]>;
  /** Busy shells of the whole app (every window, detached ones too), asked about at quit. */
  busyAtQuit(): Promise<BusyShellAtQuit[]>;
  /** Close this window now; `keep`: shells left running in the background. */
  close(keep?: string[]): Promise<null>;
  /** Quit IdeA: what to restore is recorded, every window closes, agents stop. */
  quit(): Promise<null>;
  /** A saved tab at start: the project, its shells of the last quit reopened first. */
  openSaved(root: string): Promise<ProjectDTO>;
}

/** What an agent's headless turn did (`headlessActivity`, `orchestration.transcript`). */
export type HeadlessKind = 'started' | 'text' | 'tool' | 'permission' | 'rateLimited' | 'final' | 'error';

/**
 * One step of a headless (structured) turn of an agent with no terminal: `started` (its task in
 * `text`), `text` (a piece of its answer), `tool` (a tool it used), `permission` (it asks you),
 * `rateLimited`, `final` (its answer) or `error` (why the turn failed).
 */
export interface HeadlessEntry {
  root: string;
  agentId: string;
  ticket: string;
  kind: HeadlessKind;
  text: string;
  atMs: number;
}

export interface PushBatch {
  output?: Record<string, string>;
  /** Offset of each session's chunk in `output` (UTF-16 units since the session started). */
  offsets?: Record<string, number>;
  events?: PushEvent[];
}

export type PushHandler = (batch: PushBatch) => void;
export type Unsubscribe = () => void;

// ---------------------------------------------------------------------------------------------
// Errors

/** Stable codes of `app/core/errors.py` (`AGENT_ERROR`: the target answered with an ERROR packet). */
export type ErrorCode =
  | 'NOT_FOUND'
  | 'INVALID'
  | 'ALREADY_EXISTS'
  | 'NOT_WRITABLE'
  | 'CORRUPT_FILE'
  | 'AGENT_ALREADY_RUNNING'
  | 'CHANGED_ON_DISK'
  | 'COMMAND_NOT_FOUND'
  | 'FORBIDDEN'
  | 'INBOX_FULL'
  | 'TIMEOUT'
  | 'CYCLE'
  | 'NO_REPLY'
  | 'AGENT_ERROR'
  | 'CANCELLED'
  | 'SESSION_ERROR'
  | 'INTERNAL';

/** Every `ErrorCode`, for adapters that read codes off the wire. */
export const ERROR_CODES: readonly ErrorCode[] = [
  'NOT_FOUND',
  'INVALID',
  'ALREADY_EXISTS',
  'NOT_WRITABLE',
  'CORRUPT_FILE',
  'AGENT_ALREADY_RUNNING',
  'CHANGED_ON_DISK',
  'COMMAND_NOT_FOUND',
  'FORBIDDEN',
  'INBOX_FULL',
  'TIMEOUT',
  'CYCLE',
  'NO_REPLY',
  'AGENT_ERROR',
  'CANCELLED',
  'SESSION_ERROR',
  'INTERNAL',
];

/** A failed gateway call: `code` is one of the backend's stable codes. */
export class GatewayError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'GatewayError';
    this.code = code;
    this.details = details;
  }
}

/** Turns anything thrown into a `GatewayError` (unknown failures become `INTERNAL`). */
export function asGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new GatewayError('INTERNAL', message);
}

/** An agent the resume panel offers (issue 10 item 7, contracts §4.1 `resume.*`). */
export interface ResumableAgent {
  /** The cell it ran in (it comes back there). */
  nodeId: string;
  agentId: string;
  agentName: string;
  profileId: string;
  profileName: string;
  /** The pair's conversation (the user and the agent). */
  conversationId: string;
  /** The CLI's own session id kept in `providers.json`, or null. */
  resumeId: string | null;
  /** `resume`: relaunched with `resumeId`; `fresh`: a new conversation, the handoff injected. */
  how: 'resume' | 'fresh';
  /** What will happen, in the user's words. */
  note: string;
}

export type ResumeChoice = 'resume' | 'new' | 'ignore';

export interface ResumeOutcome {
  agent: ResumableAgent;
  choice: ResumeChoice;
  /** The relaunched session, or null (Ignore). */
  sessionId: string | null;
  /** Launched with the CLI's own id. */
  resumed: boolean;
  layouts: LayoutDoc;
}

// ---------------------------------------------------------------------------------------------
// Gateways

export interface AppGateway {
  info(): Promise<AppInfo>;
}

export interface ProfilesGateway {
  detect(): Promise<ProfileDetection[]>;
  list(): Promise<Profile[]>;
  /** Saves the chosen profiles and marks the first run done. */
  save(profiles: Profile[]): Promise<Profile[]>;
  /** Runs `profile`'s detection as edited (not saved): the editor's Test button. */
  test(profile: Profile): Promise<ProfileDetection>;
  /** Templates for "Add profile…" (the generic ACP agent, a blank CLI). */
  templates(): Promise<ProfileTemplate[]>;
}

export interface ProjectsGateway {
  recent(): Promise<RecentProject[]>;
  create(root: string, name?: string): Promise<ProjectDTO>;
  open(root: string): Promise<ProjectDTO>;
  close(root: string): Promise<null>;
  /** Native folder dialog; `null` when cancelled. */
  pickFolder(): Promise<string | null>;
}

export interface LayoutGateway {
  /**
   * Applies one op to the active layout; returns the whole document. `assign` without a
   * session empties the cell: the backend detaches (never kills) what ran there.
   */
  edit(root: string, op: LayoutOp): Promise<LayoutDoc>;
  /**
   * Cell `nodeId` of the active layout shows `sessionId` (moved there when another cell showed
   * it); what the cell showed before keeps running, detached. `NOT_FOUND` for an unknown
   * session or cell.
   */
  showSession(root: string, sessionId: string, nodeId: string): Promise<LayoutDoc>;
  /**
   * The project's `layouts.json` could not be read: keep it as `.bak` and write the layouts
   * used meanwhile. `INVALID` when the file is readable.
   */
  startFresh(root: string): Promise<FreshStart>;
}

export interface SettingsGateway {
  get(): Promise<Settings>;
  /** Saves the changed values; answers the whole settings. `INVALID` names a bad field. */
  update(patch: SettingsPatch): Promise<Settings>;
}

export interface AgentsGateway {
  create(root: string, input: AgentInput): Promise<AgentDTO>;
  update(root: string, agentId: string, input: AgentChange): Promise<AgentDTO>;
  delete(root: string, agentId: string): Promise<null>;
  persona(root: string, agentId: string): Promise<string>;
  /** The project's agents as they are now (after `agentsChanged`: `agents.json` edited on disk). */
  list(root: string): Promise<AgentDTO[]>;
  /**
   * Starts the agent in cell `nodeId` (cols × rows), or re-attaches its running session there.
   * Errors: `COMMAND_NOT_FOUND`, `AGENT_ALREADY_RUNNING` (details.nodeId: where it is shown).
   */
  launch(root: string, agentId: string, nodeId: string, cols: number, rows: number): Promise<LaunchResult>;
  /** The agent's access matrix; `null` = none declared (unrestricted). `INVALID` when malformed. */
  ipc(root: string, agentId: string): Promise<IpcMatrix | null>;
  /**
   * Writes (or, with `null`, removes) the matrix in the persona's front matter, its text
   * untouched; answers the matrix as stored (`null` when nothing is declared). `INVALID` names
   * an unknown signal or zone.
   */
  setIpc(root: string, agentId: string, matrix: IpcMatrix | null): Promise<IpcMatrix | null>;
  // -- hot swap of profiles (issue 10 item 6) --
  /**
   * Swaps the agent to `profileId`, keeping persona, memory, its conversations and their
   * handoffs (the old vendor's own session history is dropped). A live terminal stops and the
   * agent relaunches under the new profile in the same cell (`size`: that cell's terminal);
   * an agent with no terminal only changes profile. Errors: `INVALID` (unknown profile, the
   * one it has), `COMMAND_NOT_FOUND` (nothing stopped), `TIMEOUT` (the old session would not end).
   */
  swapProfile(root: string, agentId: string, profileId: string, size?: TerminalSize): Promise<SwapResult>;
}

/** A terminal's size in character cells. */
export interface TerminalSize {
  cols: number;
  rows: number;
}

/**
 * `agents.swapProfile`: the agent as it is now, the profile it had, its conversation with the
 * user (the same id before and after) and, when a terminal ran (`relaunched`), the new session,
 * the cell showing it (absent: relaunched in the background) and the layouts that show it.
 */
export interface SwapResult {
  agent: AgentDTO;
  previousProfileId: string;
  conversationId: string;
  relaunched: boolean;
  sessionId?: string;
  nodeId?: string;
  layouts?: LayoutDoc;
}

export interface TerminalsGateway {
  /** Starts a shell in cell `nodeId` (cols × rows); the returned layouts already show it. */
  openShell(root: string, nodeId: string, cols: number, rows: number): Promise<ShellResult>;
  attach(sessionId: string): Promise<AttachResult>;
  /**
   * `seq` is a per-session counter from 0; the backend applies writes in seq order. `ticket`
   * marks the write portal's writes of that delivery (its text and its submit); the human's
   * keys go without (the argument is then not sent at all).
   */
  write(sessionId: string, seq: number, data: string, ticket?: string): Promise<null>;
  /** Only for a session `attach` reported alive; `NOT_FOUND` once the backend has no such PTY. */
  resize(sessionId: string, cols: number, rows: number): Promise<null>;
  kill(sessionId: string): Promise<null>;
  /** Flow control: characters consumed by xterm.js since the last ack (SPEC §5). */
  ack(sessionId: string, chars: number): Promise<null>;
  /**
   * Flow control, batched (ADR 008): characters consumed per session since its last ack, for
   * every terminal of the window in one call (`{sessionId: chars}`).
   */
  ackMany(acks: Record<string, number>): Promise<null>;
  /** This window no longer shows the session: its output stops coming, it keeps running. */
  detach(sessionId: string): Promise<null>;
}

export interface OrchestrationGateway {
  /**
   * The user's message into each target's mailbox (queued behind a busy agent, never refused
   * for being busy). One result per target, in order; a full mailbox answers that target with
   * `error.code === 'INBOX_FULL'` while the others still get their ticket.
   */
  send(root: string, targets: string[], text: string): Promise<SendResult[]>;
  /** The write portal typed and submitted `ticket` (best effort; once per ticket). */
  delivered(root: string, ticket: string): Promise<null>;
  /**
   * The human's line in agent session `sessionId` went non-empty (or uncertain: `dirty` true)
   * or empty again (`false`); sent on those transitions only, never per key (best effort).
   */
  humanLine(root: string, sessionId: string, dirty: boolean): Promise<null>;
  /**
   * The user's answer to escalation `ticket`: one of its options or a free text. `NOT_FOUND`
   * when it is no longer pending (answered elsewhere, or its agent went away).
   */
  decide(root: string, ticket: string, choice: string): Promise<null>;
  /** The project's delegations not done yet (`state` `active` or `queued`), with their `kind`. */
  graph(root: string): Promise<DelegationDTO[]>;
  /** The questions still waiting for the user (a window opening the project shows them). */
  pending(root: string): Promise<Escalation[]>;
  /** The agent's recent headless-turn activity, oldest first (bounded by the backend). */
  transcript(root: string, agentId: string): Promise<HeadlessEntry[]>;
}

export interface ConversationsGateway {
  /** The agent's pair conversations, most recent first. */
  list(root: string, agentId: string): Promise<ConversationSummary[]>;
  /** One conversation's turns and handoff. `NOT_FOUND` for an unknown id. */
  read(root: string, conversationId: string): Promise<ConversationDTO>;
}

export interface PermissionsGateway {
  /** The project's permissions; `CORRUPT_FILE` (details.field) when the file cannot be read. */
  get(root: string): Promise<PermissionsInfo>;
  /**
   * Writes the whole document (unknown keys kept); answers it as written. `INVALID` names the
   * field (`details.field`, e.g. `projectDefaults.rules[1].paths[0]`); `CORRUPT_FILE` when the
   * file on disk cannot be read (it is never overwritten).
   */
  save(root: string, document: PermissionsDoc): Promise<PermissionsDoc>;
  /**
   * Decides `capability` on `target` (a path, or a command line for `executeBash`) for agent
   * `agentId` (`null`: the project defaults), under `draft` (unsaved) or the saved file.
   */
  test(root: string, agentId: string | null, capability: Capability, target: string, draft?: PermissionsDoc): Promise<PermissionTestResult>;
  /** The agent's recent denials, newest first. */
  denials(root: string, agentId: string): Promise<Denial[]>;
}

/** The resume panel on opening a project (issue 10 item 7). */
export interface ResumeGateway {
  /** Agents that were running in a cell when IdeA last stopped, and have no session now. */
  pending(root: string): Promise<ResumableAgent[]>;
  /** Resume (own cell, own id), New conversation (fresh, handoff injected) or Ignore. */
  answer(root: string, nodeId: string, choice: ResumeChoice, cols: number, rows: number): Promise<ResumeOutcome>;
}

export interface Gateway {
  /** `pywebview` in the desktop window, `mock` in tests and a plain browser. */
  readonly kind: 'pywebview' | 'mock';
  readonly app: AppGateway;
  readonly profiles: ProfilesGateway;
  readonly projects: ProjectsGateway;
  readonly layout: LayoutGateway;
  readonly agents: AgentsGateway;
  readonly terminals: TerminalsGateway;
  readonly orchestration: OrchestrationGateway;
  readonly conversations: ConversationsGateway;
  readonly permissions: PermissionsGateway;
  readonly resume: ResumeGateway;
  readonly settings: SettingsGateway;
  readonly windows: WindowsGateway;
  /** Subscribes to pushes; batches received before the first subscriber are replayed to it. */
  onPush(handler: PushHandler): Unsubscribe;
}
