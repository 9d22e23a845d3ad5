import { describe, expect, it, vi } from 'vitest';
import { GatewayError } from '../ports';
import { createPywebviewGateway, installPushReceiver, parseBridgeError } from './pywebview';

describe('parseBridgeError', () => {
  it('reads the JSON body of a bridge error', () => {
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
  it('calls window.pywebview.api.<feature>.<method> with the arguments', async () => {
    const edit = vi.fn().mockResolvedValue({ version: 1 });
    const gateway = createPywebviewGateway(installPushReceiver(), Promise.resolve({ layout: { edit } }));
    await gateway.layout.edit('/p', { kind: 'undo' });
    expect(edit).toHaveBeenCalledWith('/p', { kind: 'undo' });
  });

  it('rejects with a typed GatewayError', async () => {
    const launch = vi.fn().mockRejectedValue(new Error('{"code":"COMMAND_NOT_FOUND","message":"command not found: claude","details":{}}'));
    const gateway = createPywebviewGateway(installPushReceiver(), Promise.resolve({ agents: { launch } }));
    await expect(gateway.agents.launch('/p', 'a', 'n', 80, 24)).rejects.toMatchObject({
      code: 'COMMAND_NOT_FOUND',
      message: 'command not found: claude',
    });
  });

  it('installs window.__ideaPush and replays early batches to the first subscriber', () => {
    const gateway = createPywebviewGateway(installPushReceiver(), Promise.resolve({}));
    window.__ideaPush!({ output: { s1: 'early' } });
    window.__ideaPush!(JSON.stringify({ events: [{ type: 'sessionExited', sessionId: 's1', exitCode: 0 }] }));
    const seen: unknown[] = [];
    gateway.onPush((batch) => seen.push(batch));
    window.__ideaPush!({ output: { s1: 'late' } });
    expect(seen).toEqual([
      { output: { s1: 'early' } },
      { events: [{ type: 'sessionExited', sessionId: 's1', exitCode: 0 }] },
      { output: { s1: 'late' } },
    ]);
  });
});
