import { PushHub } from '../push-hub';
import type {
  AgentsGateway,
  AppGateway,
  ConversationsGateway,
  ResumeGateway,
  Gateway,
  GatewayError,
  LayoutGateway,
  OrchestrationGateway,
  PermissionsGateway,
  ProfilesGateway,
  ProjectsGateway,
  PushBatch,
  PushHandler,
  SettingsGateway,
  TerminalsGateway,
  Unsubscribe,
  WindowsGateway,
} from '../ports';
import { MockBackend, type MockCall, type MockOptions, type MockSession } from './mock-backend';
import { bridgeGateway } from './pywebview';

export { BUILTIN_PROFILES, applyOp, type MockCall, type MockOptions, type MockSession } from './mock-backend';

/**
 * In-memory gateway for component tests and `vite dev` in a plain browser: the same bridge
 * client as the desktop window (`bridgeGateway`, which unwraps the `{ok}` / `{error}`
 * envelopes) over `MockBackend`, the fake Python side. Tests inspect and steer the backend
 * through the helpers below.
 */
export class MockGateway implements Gateway {
  readonly kind = 'mock' as const;
  readonly hub = new PushHub();
  readonly backend: MockBackend;
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

  constructor(options: MockOptions = {}) {
    this.backend = new MockBackend(options, (batch) => this.hub.deliver(batch));
    const client = bridgeGateway('mock', Promise.resolve(this.backend.bridge()), this.hub);
    this.app = client.app;
    this.profiles = client.profiles;
    this.projects = client.projects;
    this.layout = client.layout;
    this.agents = client.agents;
    this.terminals = client.terminals;
    this.orchestration = client.orchestration;
    this.conversations = client.conversations;
    this.permissions = client.permissions;
    this.resume = client.resume;
    this.settings = client.settings;
    this.windows = client.windows;
  }

  onPush(handler: PushHandler): Unsubscribe {
    return this.hub.subscribe(handler);
  }

  /** Every bridge call so far, with its arguments as they crossed the wire. */
  get calls(): readonly MockCall[] {
    return this.backend.calls;
  }

  /** The argument lists of the calls of `method` (e.g. `layout.edit`), in call order. */
  callsOf(method: string): unknown[][] {
    return this.backend.calls.filter((c) => c.method === method).map((c) => c.args);
  }

  /** Makes the next call of `method` answer with `error` (an `{error}` envelope). */
  failNext(method: string, error: GatewayError): void {
    this.backend.failNext(method, error);
  }

  /** Delivers a push batch now, as the backend's pump would. */
  push(batch: PushBatch): void {
    this.hub.deliver(batch);
  }

  /** Sessions the backend holds, by id. */
  get sessions(): ReadonlyMap<string, MockSession> {
    return this.backend.sessions;
  }

  /** Puts a session into the backend as if started earlier (default: a live shell); its id. */
  seedSession(seed: Partial<MockSession> = {}): string {
    return this.backend.seedSession(seed);
  }

  /** The session's process ends; `sessionExited` (and what follows) is pushed a tick later. */
  exit(sessionId: string, exitCode: number | null): void {
    this.backend.exit(sessionId, exitCode);
  }
}
