import { PushHub } from '../push-hub';
import {
  ERROR_CODES,
  GatewayError,
  type AgentsGateway,
  type AppGateway,
  type ConversationsGateway,
  type ResumeGateway,
  type ErrorCode,
  type Gateway,
  type LayoutGateway,
  type OrchestrationGateway,
  type PermissionsGateway,
  type ProfilesGateway,
  type ProjectsGateway,
  type PushBatch,
  type SendResult,
  type SettingsGateway,
  type TerminalsGateway,
  type WindowsGateway,
} from '../ports';

/**
 * The error half of a bridge reply: `code` is one of the stable codes of `app/core/errors.py`
 * (anything else is read as `INTERNAL`), `details` carries facts such as the `nodeId` of an
 * `AGENT_ALREADY_RUNNING`.
 */
export interface BridgeErrorBody {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/**
 * What every `window.pywebview.api.<feature>.<method>(...)` resolves with: the DTO under `ok`,
 * or an expected failure under `error`. Expected failures resolve instead of rejecting, so
 * pywebview does not log a traceback for each; a rejection means the call itself failed.
 */
export type BridgeReply<T = unknown> = { ok: T } | { error: BridgeErrorBody };

export type BridgeMethod = (...args: unknown[]) => Promise<unknown>;
/** `window.pywebview.api`: one object per feature, one method per call (docs/contracts.md §4). */
export type BridgeApi = Record<string, Record<string, BridgeMethod> | undefined>;

declare global {
  interface Window {
    pywebview?: { api?: BridgeApi };
    __ideaPush?: (batch: PushBatch | string) => void;
  }
}

const KNOWN_CODES: ReadonlySet<string> = new Set<ErrorCode>(ERROR_CODES);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A stable code off the wire; anything unknown reads as `INTERNAL`. */
function knownCode(code: unknown): ErrorCode {
  return typeof code === 'string' && KNOWN_CODES.has(code) ? (code as ErrorCode) : 'INTERNAL';
}

/** A `GatewayError` from an error body; unknown codes become `INTERNAL`, the message is kept. */
function errorFromBody(body: Record<string, unknown>, fallbackMessage: string): GatewayError {
  const message = typeof body.message === 'string' ? body.message : fallbackMessage;
  return new GatewayError(knownCode(body.code), message, isRecord(body.details) ? body.details : {});
}

/**
 * Reads the per-target results of `orchestration.send`: each target's error keeps a known
 * code (unknown ones read as `INTERNAL`) and its message.
 */
export function readSendResults(value: unknown): SendResult[] {
  if (!Array.isArray(value)) throw new GatewayError('INTERNAL', 'orchestration.send: malformed results', { value });
  return value.map((item): SendResult => {
    if (!isRecord(item) || typeof item.agentId !== 'string') {
      throw new GatewayError('INTERNAL', 'orchestration.send: malformed result', { item });
    }
    const result: SendResult = { agentId: item.agentId };
    if (typeof item.ticket === 'string') result.ticket = item.ticket;
    if (isRecord(item.error)) {
      const code = knownCode(item.error.code);
      result.error = { code, message: typeof item.error.message === 'string' ? item.error.message : code };
    }
    return result;
  });
}

/**
 * Reads a bridge reply (`BridgeReply`): returns the `ok` value (which may be `null`), throws a
 * `GatewayError` for `error`, and `INTERNAL` for anything that is neither.
 */
export function unwrapReply<T>(reply: unknown, call = 'bridge call'): T {
  if (isRecord(reply)) {
    if ('ok' in reply) return reply.ok as T;
    if (isRecord(reply.error)) throw errorFromBody(reply.error, `${call} failed`);
  }
  throw new GatewayError('INTERNAL', `${call}: malformed bridge reply`, { reply });
}

/**
 * Turns a rejection of a `pywebview.api` call (pywebview itself failed, or an older backend
 * that still rejects) into a `GatewayError`. A message that is JSON `{code, message, details}`
 * keeps its code; anything else becomes `INTERNAL` with the raw text.
 */
export function parseBridgeError(reason: unknown): GatewayError {
  if (reason instanceof GatewayError) return reason;
  let raw: string;
  if (typeof reason === 'string') raw = reason;
  else if (reason instanceof Error) raw = reason.message;
  else if (isRecord(reason) && typeof reason.message === 'string') raw = reason.message;
  else raw = JSON.stringify(reason) ?? String(reason);
  try {
    const body: unknown = JSON.parse(raw);
    if (isRecord(body) && typeof body.code === 'string') return errorFromBody(body, raw);
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
    target.addEventListener('pywebviewready', () => resolve(target.pywebview?.api ?? {}), { once: true });
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

/**
 * A gateway over an object shaped like `window.pywebview.api` whose methods resolve with
 * `BridgeReply` envelopes: the pywebview window's, or the mock backend's in tests.
 */
export function bridgeGateway(kind: Gateway['kind'], bridge: Promise<BridgeApi>, hub: PushHub): Gateway {
  async function call<T>(feature: string, method: string, ...args: unknown[]): Promise<T> {
    const api = await bridge;
    const fn = api[feature]?.[method];
    const name = `${feature}.${method}`;
    if (typeof fn !== 'function') throw new GatewayError('INTERNAL', `bridge method missing: ${name}`);
    let reply: unknown;
    try {
      reply = await fn(...args);
    } catch (reason) {
      throw parseBridgeError(reason);
    }
    return unwrapReply<T>(reply, name);
  }

  const app: AppGateway = { info: () => call('app', 'info') };
  const profiles: ProfilesGateway = {
    detect: () => call('profiles', 'detect'),
    list: () => call('profiles', 'list'),
    save: (list) => call('profiles', 'save', list),
    test: (profile) => call('profiles', 'test', profile),
    templates: () => call('profiles', 'templates'),
  };
  const projects: ProjectsGateway = {
    recent: () => call('projects', 'recent'),
    create: (root, name) => (name ? call('projects', 'create', root, name) : call('projects', 'create', root)),
    open: (root) => call('projects', 'open', root),
    close: (root) => call('projects', 'close', root),
    pickFolder: () => call('projects', 'pickFolder'),
  };
  const layout: LayoutGateway = {
    edit: (root, op) => call('layout', 'edit', root, op),
    showSession: (root, sessionId, nodeId) => call('layout', 'showSession', root, sessionId, nodeId),
    startFresh: (root) => call('layout', 'startFresh', root),
  };
  const settings: SettingsGateway = {
    get: () => call('settings', 'get'),
    update: (patch) => call('settings', 'update', patch),
  };
  const agents: AgentsGateway = {
    create: (root, input) => call('agents', 'create', root, input),
    update: (root, agentId, input) => call('agents', 'update', root, agentId, input),
    delete: (root, agentId) => call('agents', 'delete', root, agentId),
    persona: (root, agentId) => call('agents', 'persona', root, agentId),
    list: (root) => call('agents', 'list', root),
    launch: (root, agentId, nodeId, cols, rows) => call('agents', 'launch', root, agentId, nodeId, cols, rows),
    ipc: (root, agentId) => call('agents', 'ipc', root, agentId),
    setIpc: (root, agentId, matrix) => call('agents', 'setIpc', root, agentId, matrix),
    // hot swap of profiles (issue 10 item 6)
    swapProfile: (root, agentId, profileId, size) =>
      size === undefined ? call('agents', 'swapProfile', root, agentId, profileId) : call('agents', 'swapProfile', root, agentId, profileId, size),
  };
  const terminals: TerminalsGateway = {
    openShell: (root, nodeId, cols, rows) => call('terminals', 'openShell', root, nodeId, cols, rows),
    attach: (sessionId) => call('terminals', 'attach', sessionId),
    write: (sessionId, seq, data, ticket) =>
      ticket === undefined ? call('terminals', 'write', sessionId, seq, data) : call('terminals', 'write', sessionId, seq, data, ticket),
    resize: (sessionId, cols, rows) => call('terminals', 'resize', sessionId, cols, rows),
    kill: (sessionId) => call('terminals', 'kill', sessionId),
    ack: (sessionId, chars) => call('terminals', 'ack', sessionId, chars),
    ackMany: (acks) => call('terminals', 'ackMany', acks),
    detach: (sessionId) => call('terminals', 'detach', sessionId),
  };

  const orchestration: OrchestrationGateway = {
    send: async (root, targets, text) => readSendResults(await call('orchestration', 'send', root, targets, text)),
    delivered: (root, ticket) => call('orchestration', 'delivered', root, ticket),
    humanLine: (root, sessionId, dirty) => call('orchestration', 'humanLine', root, sessionId, dirty),
    decide: (root, ticket, choice) => call('orchestration', 'decide', root, ticket, choice),
    graph: (root) => call('orchestration', 'graph', root),
    pending: (root) => call('orchestration', 'pending', root),
    transcript: (root, agentId) => call('orchestration', 'transcript', root, agentId),
  };

  const conversations: ConversationsGateway = {
    list: (root, agentId) => call('conversations', 'list', root, agentId),
    read: (root, conversationId) => call('conversations', 'read', root, conversationId),
  };

  const permissions: PermissionsGateway = {
    get: (root) => call('permissions', 'get', root),
    save: (root, document) => call('permissions', 'save', root, document),
    test: (root, agentId, capability, target, draft) =>
      draft === undefined
        ? call('permissions', 'test', root, agentId, capability, target)
        : call('permissions', 'test', root, agentId, capability, target, draft),
    denials: (root, agentId) => call('permissions', 'denials', root, agentId),
  };

  // resume after a restart (issue 10 item 7)
  const resume: ResumeGateway = {
    pending: (root) => call('resume', 'pending', root),
    answer: (root, nodeId, choice, cols, rows) => call('resume', 'answer', root, nodeId, choice, cols, rows),
  };

  // -- windows and tabs (issue 9)
  const windows: WindowsGateway = {
    state: () => call('windows', 'state'),
    open: () => call('windows', 'open'),
    placeTab: (root) => call('windows', 'placeTab', root),
    closeTab: (root, keep) => call('windows', 'closeTab', root, keep ?? []),
    activate: (root) => call('windows', 'activate', root),
    moveTab: (root, windowId, index) =>
      index === undefined ? call('windows', 'moveTab', root, windowId) : call('windows', 'moveTab', root, windowId, index),
    relocate: (oldRoot, newRoot) => call('windows', 'relocate', oldRoot, newRoot),
    dragStart: (root) => call('windows', 'dragStart', root),
    dropTab: (index) => call('windows', 'dropTab', index),
    dragEnd: (screenX, screenY) => call('windows', 'dragEnd', screenX, screenY),
    busy: (sessionIds) => call('windows', 'busy', sessionIds),
    liveAgents: () => call('windows', 'liveAgents'),
    busyAtQuit: () => call('windows', 'busyAtQuit'),
    close: (keep) => call('windows', 'close', keep ?? []),
    quit: () => call('windows', 'quit'),
    openSaved: (root) => call('windows', 'openSaved', root),
  };

  return {
    kind,
    resume,
    app,
    profiles,
    projects,
    layout,
    agents,
    terminals,
    orchestration,
    conversations,
    permissions,
    settings,
    windows,
    onPush: (handler) => hub.subscribe(handler),
  };
}

/** Gateway over `window.pywebview.api.<feature>.<method>(...)`. */
export function createPywebviewGateway(hub: PushHub, bridge: Promise<BridgeApi> = waitForBridge()): Gateway {
  return bridgeGateway('pywebview', bridge, hub);
}
