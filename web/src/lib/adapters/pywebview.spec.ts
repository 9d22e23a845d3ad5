import { describe, expect, it, vi } from 'vitest';
import { GatewayError } from '../ports';
import { createPywebviewGateway, installPushReceiver, parseBridgeError, unwrapReply, type BridgeApi } from './pywebview';

const gatewayOver = (api: BridgeApi) => createPywebviewGateway(installPushReceiver(), Promise.resolve(api));

describe('unwrapReply', () => {
  it('returns the ok value, null included', () => {
    expect(unwrapReply({ ok: { sessionId: 's1' } })).toEqual({ sessionId: 's1' });
    expect(unwrapReply({ ok: null })).toBeNull();
  });

  it('throws a typed GatewayError for an error envelope', () => {
    const reply = { error: { code: 'AGENT_ALREADY_RUNNING', message: 'busy', details: { nodeId: 'n2' } } };
    expect(() => unwrapReply(reply)).toThrow(GatewayError);
    try {
      unwrapReply(reply);
    } catch (error) {
      expect(error).toMatchObject({ code: 'AGENT_ALREADY_RUNNING', message: 'busy', details: { nodeId: 'n2' } });
    }
  });

  it('reads an unknown code as INTERNAL and missing details as {}', () => {
    expect(() => unwrapReply({ error: { code: 'WHAT', message: 'odd' } })).toThrow(
      expect.objectContaining({ code: 'INTERNAL', message: 'odd', details: {} }) as Error,
    );
  });

  it('rejects a reply that is neither ok nor error as INTERNAL', () => {
    for (const reply of [undefined, null, 'text', { sessionId: 's1' }, { error: 'flat string' }]) {
      expect(() => unwrapReply(reply, 'terminals.openShell')).toThrow(
        expect.objectContaining({ code: 'INTERNAL', message: 'terminals.openShell: malformed bridge reply' }) as Error,
      );
    }
  });
});

describe('parseBridgeError', () => {
  it('reads the JSON body of a rejection', () => {
    const error = parseBridgeError(new Error(JSON.stringify({ code: 'AGENT_ALREADY_RUNNING', message: 'busy', details: { nodeId: 'n2' } })));
    expect(error).toBeInstanceOf(GatewayError);
    expect(error.code).toBe('AGENT_ALREADY_RUNNING');
    expect(error.message).toBe('busy');
    expect(error.details).toEqual({ nodeId: 'n2' });
  });

  it('turns anything else into INTERNAL with the raw text', () => {
    const error = parseBridgeError('Traceback: boom');
    expect(error.code).toBe('INTERNAL');
    expect(error.message).toBe('Traceback: boom');
  });
});

describe('pywebview gateway', () => {
  it('calls window.pywebview.api.<feature>.<method> with the arguments and unwraps ok', async () => {
    const doc = { version: 1, activeId: 'L1', layouts: [] };
    const edit = vi.fn().mockResolvedValue({ ok: doc });
    const gateway = gatewayOver({ layout: { edit } });
    await expect(gateway.layout.edit('/p', { kind: 'undo' })).resolves.toEqual(doc);
    expect(edit).toHaveBeenCalledWith('/p', { kind: 'undo' });
  });

  it('resolves methods that answer {ok: null}', async () => {
    const close = vi.fn().mockResolvedValue({ ok: null });
    await expect(gatewayOver({ projects: { close } }).projects.close('/p')).resolves.toBeNull();
  });

  it("sends a write's ticket only when there is one (the human's keys go without)", async () => {
    const write = vi.fn().mockResolvedValue({ ok: null });
    const gateway = gatewayOver({ terminals: { write } });
    await gateway.terminals.write('s1', 0, 'ls');
    await gateway.terminals.write('s1', 1, 'task', 't1');
    expect(write.mock.calls).toEqual([
      ['s1', 0, 'ls'],
      ['s1', 1, 'task', 't1'],
    ]);
  });

  it('reports the human line as orchestration.humanLine(root, sessionId, dirty)', async () => {
    const humanLine = vi.fn().mockResolvedValue({ ok: null });
    await expect(gatewayOver({ orchestration: { humanLine } }).orchestration.humanLine('/p', 's1', true)).resolves.toBeNull();
    expect(humanLine).toHaveBeenCalledWith('/p', 's1', true);
  });

  it('rejects with a typed GatewayError when the bridge resolves an error envelope', async () => {
    const launch = vi.fn().mockResolvedValue({ error: { code: 'COMMAND_NOT_FOUND', message: 'command not found: claude', details: {} } });
    await expect(gatewayOver({ agents: { launch } }).agents.launch('/p', 'a', 'n', 80, 24)).rejects.toMatchObject({
      name: 'GatewayError',
      code: 'COMMAND_NOT_FOUND',
      message: 'command not found: claude',
    });
  });

  it('still turns a rejection (pywebview-level failure) into a GatewayError', async () => {
    const launch = vi.fn().mockRejectedValue(new Error('{"code":"INVALID","message":"bad cols","details":{}}'));
    await expect(gatewayOver({ agents: { launch } }).agents.launch('/p', 'a', 'n', 0, 24)).rejects.toMatchObject({
      code: 'INVALID',
      message: 'bad cols',
    });
    const attach = vi.fn().mockRejectedValue(new Error('Traceback (most recent call last) …'));
    await expect(gatewayOver({ terminals: { attach } }).terminals.attach('s1')).rejects.toMatchObject({ code: 'INTERNAL' });
  });

  it('rejects INTERNAL for a bridge method that does not exist', async () => {
    await expect(gatewayOver({}).terminals.kill('s1')).rejects.toMatchObject({
      code: 'INTERNAL',
      message: 'bridge method missing: terminals.kill',
    });
  });

  it('installs window.__ideaPush and replays early batches to the first subscriber', () => {
    const gateway = gatewayOver({});
    window.__ideaPush!({ output: { s1: 'early' } });
    window.__ideaPush!(JSON.stringify({ events: [{ type: 'sessionExited', root: '/p', sessionId: 's1', exitCode: 0 }] }));
    const seen: unknown[] = [];
    gateway.onPush((batch) => seen.push(batch));
    window.__ideaPush!({ output: { s1: 'late' } });
    expect(seen).toEqual([
      { output: { s1: 'early' } },
      { events: [{ type: 'sessionExited', root: '/p', sessionId: 's1', exitCode: 0 }] },
      { output: { s1: 'late' } },
    ]);
  });
});

describe('orchestration over the bridge', () => {
  it('sends to several targets and reads each result, keeping the delegation error codes', async () => {
    const send = vi.fn().mockResolvedValue({
      ok: [
        { agentId: 'a1', ticket: 't1' },
        { agentId: 'a2', error: { code: 'INBOX_FULL', message: 'full' } },
        { agentId: 'a3', error: { code: 'SOMETHING_NEW' } },
      ],
    });
    const gateway = gatewayOver({ orchestration: { send } });
    await expect(gateway.orchestration.send('/p', ['a1', 'a2', 'a3'], 'review')).resolves.toEqual([
      { agentId: 'a1', ticket: 't1' },
      { agentId: 'a2', error: { code: 'INBOX_FULL', message: 'full' } },
      { agentId: 'a3', error: { code: 'INTERNAL', message: 'INTERNAL' } },
    ]);
    expect(send).toHaveBeenCalledWith('/p', ['a1', 'a2', 'a3'], 'review');
  });

  it('acknowledges a delivery with the root and the ticket', async () => {
    const delivered = vi.fn().mockResolvedValue({ ok: null });
    await expect(gatewayOver({ orchestration: { delivered } }).orchestration.delivered('/p', 't7')).resolves.toBeNull();
    expect(delivered).toHaveBeenCalledWith('/p', 't7');
  });

  it('knows the delegation error codes of a failed call', () => {
    for (const code of ['FORBIDDEN', 'INBOX_FULL', 'TIMEOUT', 'CYCLE', 'NO_REPLY', 'AGENT_ERROR']) {
      expect(() => unwrapReply({ error: { code, message: 'x' } })).toThrow(expect.objectContaining({ code }) as Error);
    }
  });
});

describe('conversations, the access matrix and escalations over the bridge (contracts §8.4)', () => {
  it('lists and reads conversations with the root and the ids', async () => {
    const summary = [{ id: 'c1', peer: null, turns: 2, lastAtMs: 5 }];
    const doc = { turns: [], handoff: '**Objective:** x' };
    const list = vi.fn().mockResolvedValue({ ok: summary });
    const read = vi.fn().mockResolvedValue({ ok: doc });
    const gateway = gatewayOver({ conversations: { list, read } });
    await expect(gateway.conversations.list('/p', 'a1')).resolves.toEqual(summary);
    await expect(gateway.conversations.read('/p', 'c1')).resolves.toEqual(doc);
    expect(list).toHaveBeenCalledWith('/p', 'a1');
    expect(read).toHaveBeenCalledWith('/p', 'c1');
  });

  it('reads and writes an agent matrix, null included', async () => {
    const ipc = vi.fn().mockResolvedValue({ ok: null });
    const setIpc = vi.fn().mockResolvedValue({ ok: { sendsTo: ['Alpha'] } });
    const gateway = gatewayOver({ agents: { ipc, setIpc } });
    await expect(gateway.agents.ipc('/p', 'a1')).resolves.toBeNull();
    await expect(gateway.agents.setIpc('/p', 'a1', { sendsTo: ['Alpha'] })).resolves.toEqual({ sendsTo: ['Alpha'] });
    expect(setIpc).toHaveBeenCalledWith('/p', 'a1', { sendsTo: ['Alpha'] });
  });

  it('decides an escalation and reads the graph', async () => {
    const decide = vi.fn().mockResolvedValue({ ok: null });
    const graph = vi.fn().mockResolvedValue({ ok: [{ ticket: 't1', from: 'user', to: 'a1', state: 'active' }] });
    const gateway = gatewayOver({ orchestration: { decide, graph } });
    await expect(gateway.orchestration.decide('/p', 'e1', 'Option B')).resolves.toBeNull();
    expect(decide).toHaveBeenCalledWith('/p', 'e1', 'Option B');
    await expect(gateway.orchestration.graph('/p')).resolves.toEqual([{ ticket: 't1', from: 'user', to: 'a1', state: 'active' }]);
  });
});
