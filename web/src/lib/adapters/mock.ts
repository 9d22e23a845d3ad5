import { PushHub } from '../push-hub';
import {
  GatewayError,
  type AgentDTO,
  type AppInfo,
  type Gateway,
  type LayoutDoc,
  type LayoutNode,
  type LayoutOp,
  type Profile,
  type ProfileDetection,
  type ProjectDTO,
  type PushBatch,
  type RecentProject,
} from '../ports';

/**
 * In-memory gateway: used by component tests and by `vite dev` in a plain browser. Layout ops
 * follow docs/contracts.md §3 closely enough for the UI; terminals echo what is typed.
 */

export const BUILTIN_PROFILES: Profile[] = [
  { id: 'claude-code', name: 'Claude Code', command: 'claude', args: [], contextInjection: { strategy: 'conventionFile', target: 'CLAUDE.md' } },
  { id: 'codex-cli', name: 'Codex CLI', command: 'codex', args: [], contextInjection: { strategy: 'conventionFile', target: 'AGENTS.md' } },
  { id: 'gemini-cli', name: 'Gemini CLI', command: 'gemini', args: [], contextInjection: { strategy: 'conventionFile', target: 'GEMINI.md' } },
  { id: 'aider', name: 'Aider', command: 'aider', args: [], contextInjection: { strategy: 'flag', flag: '--read' } },
  { id: 'shell', name: 'Shell', command: 'sh', args: [], contextInjection: { strategy: 'env', var: 'IDEA_CONTEXT' } },
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
  /** Folders that exist as projects already (open succeeds). */
  projects?: ProjectDTO[];
  profiles?: Profile[];
  /** Folders where create fails with NOT_WRITABLE. */
  readOnly?: string[];
  /** Answer of `pickFolder`. */
  pickedFolder?: string | null;
  /** Emulate a shell: echo input and print a prompt. Off in tests unless asked. */
  echo?: boolean;
}

interface MockSession {
  alive: boolean;
  exitCode: number | null;
  scrollback: string;
}

export class MockGateway implements Gateway {
  readonly kind = 'mock' as const;
  readonly calls: MockCall[] = [];
  readonly hub = new PushHub();
  readonly sessions = new Map<string, MockSession>();
  readonly projectsByRoot = new Map<string, ProjectDTO>();
  #options: Required<MockOptions>;
  #savedProfiles: Profile[];
  #failures = new Map<string, GatewayError[]>();
  #history = new Map<string, { undo: LayoutDoc[]; redo: LayoutDoc[] }>();
  #ids = 0;

  constructor(options: MockOptions = {}) {
    this.#options = {
      firstRun: false,
      installed: ['sh', 'claude'],
      recent: [],
      projects: [],
      profiles: BUILTIN_PROFILES,
      readOnly: [],
      pickedFolder: null,
      echo: false,
      ...options,
    };
    this.#savedProfiles = structuredClone(this.#options.profiles);
    for (const p of this.#options.projects) this.projectsByRoot.set(p.root, structuredClone(p));
  }

  /** Makes the next call of `method` (e.g. `agents.launch`) reject with `error`. */
  failNext(method: string, error: GatewayError): void {
    const queue = this.#failures.get(method) ?? [];
    queue.push(error);
    this.#failures.set(method, queue);
  }

  /** Delivers a push batch as the backend would. */
  push(batch: PushBatch): void {
    this.hub.deliver(batch);
  }

  callsOf(method: string): unknown[][] {
    return this.calls.filter((c) => c.method === method).map((c) => c.args);
  }

  onPush = (handler: (batch: PushBatch) => void) => this.hub.subscribe(handler);

  async #call<T>(method: string, args: unknown[], body: () => T): Promise<T> {
    this.calls.push({ method, args });
    await Promise.resolve();
    const failure = this.#failures.get(method)?.shift();
    if (failure) throw failure;
    return structuredClone(body());
  }

  #id(prefix: string): string {
    this.#ids += 1;
    return `${prefix}${this.#ids}`;
  }

  #project(root: string): ProjectDTO {
    const project = this.projectsByRoot.get(root);
    if (!project) throw new GatewayError('NOT_FOUND', `project not open: ${root}`);
    return project;
  }

  app = {
    info: () =>
      this.#call<AppInfo>('app.info', [], () => ({
        version: '0.1.0-mock',
        dataDir: '/tmp/idea-mock',
        firstRun: this.#options.firstRun,
        platform: 'linux',
        problems: [],
      })),
  };

  profiles = {
    detect: () =>
      this.#call<ProfileDetection[]>('profiles.detect', [], () =>
        BUILTIN_PROFILES.map((profile) => {
          const installed = this.#options.installed.includes(profile.command);
          return { profile, installed, version: installed && profile.id !== 'shell' ? `${profile.command} 1.0.0` : null };
        }),
      ),
    list: () => this.#call('profiles.list', [], () => this.#savedProfiles),
    save: (profiles: Profile[]) =>
      this.#call('profiles.save', [profiles], () => {
        this.#savedProfiles = structuredClone(profiles);
        this.#options.firstRun = false;
        return profiles;
      }),
  };

  projects = {
    recent: () => this.#call('projects.recent', [], () => this.#options.recent),
    create: (root: string, name?: string) =>
      this.#call('projects.create', name === undefined ? [root] : [root, name], () => {
        if (this.#options.readOnly.includes(root)) {
          throw new GatewayError('NOT_WRITABLE', `folder is not writable: ${root}`);
        }
        const project = emptyProject(root, name ?? basename(root), this.#id('n'));
        this.projectsByRoot.set(root, project);
        return project;
      }),
    open: (root: string) =>
      this.#call('projects.open', [root], () => {
        const project = this.projectsByRoot.get(root);
        if (!project) throw new GatewayError('NOT_FOUND', `no IdeA project in ${root}`);
        return project;
      }),
    close: (root: string) => this.#call('projects.close', [root], () => null),
    pickFolder: () => this.#call('projects.pickFolder', [], () => this.#options.pickedFolder),
  };

  layout = {
    edit: (root: string, op: LayoutOp) =>
      this.#call('layout.edit', [root, op], () => {
        const project = this.#project(root);
        if (!project.layouts) throw new GatewayError('CORRUPT_FILE', 'layouts.json could not be read');
        const history = this.#history.get(root) ?? { undo: [], redo: [] };
        this.#history.set(root, history);
        if (op.kind === 'undo' || op.kind === 'redo') {
          const from = op.kind === 'undo' ? history.undo : history.redo;
          const to = op.kind === 'undo' ? history.redo : history.undo;
          const previous = from.pop();
          if (previous) {
            to.push(project.layouts);
            project.layouts = previous;
          }
          return project.layouts;
        }
        const next = structuredClone(project.layouts);
        const layout = next.layouts.find((l) => l.id === next.activeId) ?? next.layouts[0];
        layout.tree.root = applyOp(layout.tree.root, op, () => this.#id('n'));
        history.undo.push(project.layouts);
        history.redo = [];
        project.layouts = next;
        return next;
      }),
  };

  agents = {
    create: (root: string, input: { name: string; persona: string; profileId: string }) =>
      this.#call('agents.create', [root, input], () => {
        const project = this.#project(root);
        if (!input.name.trim()) throw new GatewayError('INVALID', 'name is required');
        const agent: AgentDTO = {
          agentId: this.#id('a'),
          name: input.name,
          mdPath: `agents/${slug(input.name)}.md`,
          profileId: input.profileId,
          synchronized: false,
          skills: [],
          running: false,
        };
        project.agents.push(agent);
        this.#personas.set(agent.agentId, input.persona);
        return agent;
      }),
    update: (root: string, agentId: string, input: Partial<{ name: string; persona: string; profileId: string }>) =>
      this.#call('agents.update', [root, agentId, input], () => {
        const agent = this.#project(root).agents.find((a) => a.agentId === agentId);
        if (!agent) throw new GatewayError('NOT_FOUND', `no agent ${agentId}`);
        if (input.name !== undefined) agent.name = input.name;
        if (input.profileId !== undefined) agent.profileId = input.profileId;
        if (input.persona !== undefined) this.#personas.set(agentId, input.persona);
        return agent;
      }),
    delete: (root: string, agentId: string) =>
      this.#call('agents.delete', [root, agentId], () => {
        const project = this.#project(root);
        project.agents = project.agents.filter((a) => a.agentId !== agentId);
        return null;
      }),
    persona: (root: string, agentId: string) =>
      this.#call('agents.persona', [root, agentId], () => this.#personas.get(agentId) ?? ''),
    launch: (root: string, agentId: string, nodeId: string, cols: number, rows: number) =>
      this.#call('agents.launch', [root, agentId, nodeId, cols, rows], () => {
        const agent = this.#project(root).agents.find((a) => a.agentId === agentId);
        if (!agent) throw new GatewayError('NOT_FOUND', `no agent ${agentId}`);
        const profile = this.#savedProfiles.find((p) => p.id === agent.profileId);
        if (!profile || !this.#options.installed.includes(profile.command)) {
          throw new GatewayError('COMMAND_NOT_FOUND', `command not found: ${profile?.command ?? agent.profileId}`);
        }
        if (agent.running && agent.sessionId) {
          return { sessionId: agent.sessionId, reattached: true };
        }
        const sessionId = this.#spawn(`${profile.name} — ${agent.name}\r\n`);
        agent.running = true;
        agent.sessionId = sessionId;
        return { sessionId, reattached: false };
      }),
  };

  terminals = {
    openShell: (root: string, nodeId: string, cols: number, rows: number) =>
      this.#call('terminals.openShell', [root, nodeId, cols, rows], () => ({ sessionId: this.#spawn('$ ') })),
    attach: (sessionId: string) =>
      this.#call('terminals.attach', [sessionId], () => {
        const session = this.sessions.get(sessionId);
        if (!session) return { scrollback: '', end: 0, alive: false, exitCode: null };
        return { scrollback: session.scrollback, end: session.scrollback.length, alive: session.alive, exitCode: session.exitCode };
      }),
    write: (sessionId: string, seq: number, data: string) =>
      this.#call('terminals.write', [sessionId, seq, data], () => {
        if (this.#options.echo) this.#echo(sessionId, data);
        return null;
      }),
    resize: (sessionId: string, cols: number, rows: number) =>
      this.#call('terminals.resize', [sessionId, cols, rows], () => null),
    kill: (sessionId: string) =>
      this.#call('terminals.kill', [sessionId], () => {
        const session = this.sessions.get(sessionId);
        if (session?.alive) {
          session.alive = false;
          session.exitCode = 130;
          setTimeout(() => this.push({ events: [{ type: 'sessionExited', sessionId, exitCode: 130 }] }), 0);
        }
        return null;
      }),
    ack: (sessionId: string, chars: number) => this.#call('terminals.ack', [sessionId, chars], () => null),
  };

  #personas = new Map<string, string>();

  #spawn(banner: string): string {
    const sessionId = this.#id('s');
    this.sessions.set(sessionId, { alive: true, exitCode: null, scrollback: banner });
    return sessionId;
  }

  #echo(sessionId: string, data: string): void {
    const session = this.sessions.get(sessionId);
    if (!session?.alive) return;
    const text = data.replace(/\r/g, '\r\n$ ').replace(/\x7f/g, '\b \b');
    session.scrollback += text;
    setTimeout(() => this.push({ output: { [sessionId]: text } }), 0);
  }
}

function emptyProject(root: string, name: string, leafId: string): ProjectDTO {
  return {
    root,
    name,
    agents: [],
    problems: [],
    liveSessions: {},
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
        const leaf = { id: node.node.id } as { id: string; session?: string; agent?: string };
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
      if (op.kind === 'resize' && node.node.id === op.nodeId) {
        return { ...node, node: { ...node.node, children: node.node.children.map((c, i) => ({ ...c, weight: op.weights[i] ?? c.weight })) } };
      }
      const children = node.node.children
        .map((c) => ({ ...c, node: visit(c.node) }))
        .filter((c): c is { node: LayoutNode; weight: number } => c.node !== null);
      if (children.length === 0) return null;
      if (children.length === 1) return children[0].node;
      return { ...node, node: { ...node.node, children } };
    }
    const cells = node.node.cells
      .map((c) => ({ ...c, node: visit(c.node) ?? { type: 'leaf', node: { id: newId() } } }));
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
