import { PushHub } from '../push-hub';
import {
  GatewayError,
  type AgentsGateway,
  type AppGateway,
  type ErrorCode,
  type Gateway,
  type LayoutGateway,
  type ProfilesGateway,
  type ProjectsGateway,
  type PushBatch,
  type TerminalsGateway,
} from '../ports';

type BridgeMethod = (...args: unknown[]) => Promise<unknown>;
type BridgeApi = Record<string, Record<string, BridgeMethod> | undefined>;

declare global {
  interface Window {
    pywebview?: { api?: BridgeApi };
    __ideaPush?: (batch: PushBatch | string) => void;
  }
}

const KNOWN_CODES: ReadonlySet<string> = new Set<ErrorCode>([
  'NOT_FOUND',
  'INVALID',
  'ALREADY_EXISTS',
  'NOT_WRITABLE',
  'CORRUPT_FILE',
  'AGENT_ALREADY_RUNNING',
  'COMMAND_NOT_FOUND',
  'INTERNAL',
]);

/**
 * Turns a rejection of a `pywebview.api` call into a `GatewayError`. The bridge rejects with an
 * error whose message is JSON `{code, message, details}`; anything else becomes `INTERNAL`.
 */
export function parseBridgeError(reason: unknown): GatewayError {
  if (reason instanceof GatewayError) return reason;
  const raw =
    typeof reason === 'string'
      ? reason
      : reason && typeof reason === 'object' && 'message' in reason
        ? String(reason.message)
        : String(reason);
  try {
    const body = JSON.parse(raw) as { code?: unknown; message?: unknown; details?: unknown };
    if (body && typeof body === 'object' && typeof body.code === 'string') {
      const code = (KNOWN_CODES.has(body.code) ? body.code : 'INTERNAL') as ErrorCode;
      const details =
        body.details && typeof body.details === 'object' ? (body.details as Record<string, unknown>) : {};
      return new GatewayError(code, typeof body.message === 'string' ? body.message : raw, details);
    }
  } catch {
    // not JSON: fall through
  }
  return new GatewayError('INTERNAL', raw);
}

/** Resolves with `window.pywebview.api` once pywebview signalled `pywebviewready`. */
export function waitForBridge(target: Window = window): Promise<BridgeApi> {
  const api = target.pywebview?.api;
  if (api && Object.keys(api).length > 0) return Promise.resolve(api);
  return new Promise((resolve) => {
    target.addEventListener(
      'pywebviewready',
      () => resolve(target.pywebview?.api ?? {}),
      { once: true },
    );
  });
}

/**
 * Installs `window.__ideaPush` (call this before anything else so no batch is missed) and
 * returns the hub it feeds.
 */
export function installPushReceiver(target: Window = window): PushHub {
  const hub = new PushHub();
  target.__ideaPush = (batch) => hub.deliver(batch);
  return hub;
}

/** Gateway over `window.pywebview.api.<feature>.<method>(...)`. */
export function createPywebviewGateway(hub: PushHub, bridge: Promise<BridgeApi> = waitForBridge()): Gateway {
  async function call<T>(feature: string, method: string, ...args: unknown[]): Promise<T> {
    const api = await bridge;
    const fn = api[feature]?.[method];
    if (typeof fn !== 'function') {
      throw new GatewayError('INTERNAL', `bridge method missing: ${feature}.${method}`);
    }
    try {
      return (await fn(...args)) as T;
    } catch (reason) {
      throw parseBridgeError(reason);
    }
  }

  const app: AppGateway = { info: () => call('app', 'info') };
  const profiles: ProfilesGateway = {
    detect: () => call('profiles', 'detect'),
    list: () => call('profiles', 'list'),
    save: (list) => call('profiles', 'save', list),
  };
  const projects: ProjectsGateway = {
    recent: () => call('projects', 'recent'),
    create: (root, name) => (name ? call('projects', 'create', root, name) : call('projects', 'create', root)),
    open: (root) => call('projects', 'open', root),
    close: (root) => call('projects', 'close', root),
    pickFolder: () => call('projects', 'pickFolder'),
  };
  const layout: LayoutGateway = { edit: (root, op) => call('layout', 'edit', root, op) };
  const agents: AgentsGateway = {
    create: (root, input) => call('agents', 'create', root, input),
    update: (root, agentId, input) => call('agents', 'update', root, agentId, input),
    delete: (root, agentId) => call('agents', 'delete', root, agentId),
    persona: (root, agentId) => call('agents', 'persona', root, agentId),
    launch: (root, agentId, nodeId, cols, rows) => call('agents', 'launch', root, agentId, nodeId, cols, rows),
  };
  const terminals: TerminalsGateway = {
    openShell: (root, nodeId, cols, rows) => call('terminals', 'openShell', root, nodeId, cols, rows),
    attach: (sessionId) => call('terminals', 'attach', sessionId),
    write: (sessionId, seq, data) => call('terminals', 'write', sessionId, seq, data),
    resize: (sessionId, cols, rows) => call('terminals', 'resize', sessionId, cols, rows),
    kill: (sessionId) => call('terminals', 'kill', sessionId),
    ack: (sessionId, chars) => call('terminals', 'ack', sessionId, chars),
  };

  return {
    kind: 'pywebview',
    app,
    profiles,
    projects,
    layout,
    agents,
    terminals,
    onPush: (handler) => hub.subscribe(handler),
  };
}
