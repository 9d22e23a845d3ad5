import { describe, expect, it } from 'vitest';
import type { IpcMatrix, PushEvent } from '../ports';
import { agent, project, settle } from '../../test/harness';
import { MockGateway } from './mock';

/** A gateway whose pushes are collected, with agent Beta running in session s1. */
async function running(options: { inboxCapacity?: number; attach?: boolean; ipc?: Record<string, IpcMatrix> } = {}) {
  const gateway = new MockGateway({
    projects: [project('/p', { agents: [agent('a1', 'Alpha'), agent('a2', 'Beta')] })],
    inboxCapacity: options.inboxCapacity,
    ipc: options.ipc,
  });
  const events: PushEvent[] = [];
  gateway.onPush((batch) => events.push(...(batch.events ?? [])));
  await gateway.app.info();
  await gateway.projects.open('/p');
  const { sessionId } = await gateway.agents.launch('/p', 'a2', 'n1', 80, 24);
  if (options.attach !== false) await gateway.terminals.attach(sessionId);
  // unattached, the launch settles on its own a moment later
  else await new Promise((resolve) => setTimeout(resolve, 250));
  await settle();
  events.length = 0;
  return { gateway, events, sessionId };
}

const ofType = <T extends PushEvent['type']>(events: PushEvent[], type: T) =>
  events.filter((e): e is Extract<PushEvent, { type: T }> => e.type === type);

describe('MockBackend orchestration', () => {
  it('starts a sent task at once on an idle agent and offers it to the attached view', async () => {
    const { gateway, events } = await running();
    await expect(gateway.orchestration.send('/p', ['a2'], 'review\nthe diff')).resolves.toEqual([{ agentId: 'a2', ticket: 't1' }]);
    await settle();

    expect(ofType(events, 'delegation').map((e) => e.state)).toEqual(['queued', 'active']);
    expect(ofType(events, 'agentActivity').at(-1)).toMatchObject({ agentId: 'a2', activity: 'busy', queueDepth: 0, ticket: 't1' });
    expect(ofType(events, 'delegationReady')).toEqual([
      {
        type: 'delegationReady',
        root: '/p',
        agentId: 'a2',
        sessionId: 's1',
        view: 'view-1',
        ticket: 't1',
        text: '[IdeA · task from user · ticket t1] review the diff',
        lineDirty: false,
      },
    ]);
    expect(ofType(events, 'delegation').map((e) => e.kind)).toEqual(['message', 'message']);
  });

  it("tags an agent's ask and its message with their kind; only the ask carries the reply instruction", async () => {
    const { gateway, events } = await running();
    gateway.backend.ask('/p', 'a1', 'a2', 'review');
    gateway.backend.message('/p', 'a1', 'a2', 'fyi');
    await settle();
    expect(ofType(events, 'delegation').map((e) => `${e.ticket}:${e.kind}:${e.state}`)).toEqual(['t1:ask:queued', 't1:ask:active', 't2:message:queued']);
    gateway.backend.finishTurn('a2');
    await settle();
    const [ask, message] = ofType(events, 'delegationReady').map((e) => e.text);
    expect(ask).toContain('(answer with idea_reply, ticket t1');
    expect(message).toBe('[IdeA · task from Alpha · ticket t2] fyi');
  });

  it('offers a delivery with the last human line state a portal reported', async () => {
    const { gateway, events, sessionId } = await running();
    await gateway.orchestration.humanLine('/p', sessionId, true);
    await gateway.orchestration.send('/p', ['a2'], 'x');
    await settle();
    expect(ofType(events, 'delegationReady').map((e) => e.lineDirty)).toEqual([true]);
    await gateway.orchestration.humanLine('/p', sessionId, false);
    await gateway.terminals.attach(sessionId);
    await settle();
    expect(ofType(events, 'delegationReady').map((e) => e.lineDirty)).toEqual([true, false]);
  });

  it('records the ticket a write carries', async () => {
    const { gateway, sessionId } = await running();
    await gateway.terminals.write(sessionId, 0, 'ls');
    await gateway.terminals.write(sessionId, 1, 'task', 't1');
    expect(gateway.callsOf('terminals.write')).toEqual([
      [sessionId, 0, 'ls'],
      [sessionId, 1, 'task', 't1'],
    ]);
  });

  it('queues behind the running turn and refuses beyond the inbox capacity', async () => {
    const { gateway, events } = await running({ inboxCapacity: 1 });
    const results = await gateway.orchestration.send('/p', ['a2', 'Beta', 'beta', 'nobody'], 'x');
    expect(results.map((r) => r.ticket ?? r.error?.code)).toEqual(['t1', 't2', 'INBOX_FULL', 'NOT_FOUND']);
    await settle();
    expect(ofType(events, 'agentActivity').at(-1)).toMatchObject({ activity: 'busy', queueDepth: 1 });

    gateway.backend.finishTurn('a2');
    await settle();
    expect(ofType(events, 'delegation').filter((e) => e.ticket === 't1').at(-1)?.state).toBe('done');
    expect(ofType(events, 'delegationReady').map((e) => e.ticket)).toEqual(['t1', 't2']);
  });

  it('offers a delivery again to a view that attaches before it was acknowledged, not after', async () => {
    const { gateway, events, sessionId } = await running();
    await gateway.orchestration.send('/p', ['a2'], 'x');
    await gateway.terminals.attach(sessionId);
    await settle();
    expect(ofType(events, 'delegationReady')).toHaveLength(2);

    await gateway.orchestration.delivered('/p', 't1');
    await gateway.terminals.attach(sessionId);
    await settle();
    expect(ofType(events, 'delegationReady')).toHaveLength(2);
  });

  it('types it headless when no view attached the session', async () => {
    const { gateway, events, sessionId } = await running({ attach: false });
    await gateway.orchestration.send('/p', ['a2'], 'x');
    await settle();
    expect(ofType(events, 'delegationReady')).toEqual([]);
    expect(gateway.sessions.get(sessionId)?.scrollback).toContain('[IdeA · task from user · ticket t1] x');
  });

  it('holds a headless delivery while the reported human line is dirty, and types it once it is clean', async () => {
    const { gateway, sessionId } = await running();
    await gateway.orchestration.humanLine('/p', sessionId, true);
    await gateway.orchestration.send('/p', ['a2'], 'x');
    await gateway.terminals.detach(sessionId);
    expect(gateway.sessions.get(sessionId)?.scrollback).not.toContain('ticket t1] x');
    await gateway.orchestration.humanLine('/p', sessionId, false);
    expect(gateway.sessions.get(sessionId)?.scrollback).toContain('ticket t1] x');
  });

  it('types it headless when the view detaches before acknowledging', async () => {
    const { gateway, events, sessionId } = await running();
    await gateway.orchestration.send('/p', ['a2'], 'x');
    await gateway.terminals.detach(sessionId);
    await gateway.terminals.attach(sessionId);
    await settle();
    expect(ofType(events, 'delegationReady')).toHaveLength(1);
    expect(gateway.sessions.get(sessionId)?.scrollback).toContain('ticket t1] x');
  });

  it('fails the running turn with NO_REPLY when the session ends', async () => {
    const { gateway, events, sessionId } = await running();
    gateway.backend.ask('/p', 'a1', 'Beta', 'help');
    gateway.exit(sessionId, 1);
    await settle();
    expect(ofType(events, 'delegation').at(-1)).toMatchObject({ from: 'a1', to: 'a2', state: 'failed', reason: 'NO_REPLY' });
    expect(ofType(events, 'agentActivity').at(-1)).toMatchObject({ agentId: 'a2', activity: 'stopped' });
  });
});

describe('MockBackend conversations, packets, matrix and escalations (contracts §8)', () => {
  it('logs each turn in the pair conversation: the user and Beta, Alpha and Beta apart', async () => {
    const { gateway } = await running();
    await gateway.orchestration.send('/p', ['a2'], 'from you');
    await settle();
    gateway.backend.finishTurn('a2', { state: 'done', reply: 'ok, done' });
    gateway.backend.ask('/p', 'a1', 'a2', 'from Alpha');
    await settle();

    const list = await gateway.conversations.list('/p', 'a2');
    expect(list.map((c) => [c.peer, c.turns])).toEqual([
      ['a1', 1],
      [null, 2],
    ]);
    const withUser = await gateway.conversations.read('/p', list[1].id);
    expect(withUser.turns.map((t) => [t.source, t.role, t.text])).toEqual([
      [{ kind: 'human' }, 'prompt', 'from you'],
      [{ kind: 'agent', agentId: 'a2' }, 'response', 'ok, done'],
    ]);
    expect(withUser.handoff).toContain('- **Response:** ok, done');
    expect((await gateway.conversations.list('/p', 'a1')).map((c) => c.peer)).toEqual(['a2']);
    await expect(gateway.conversations.read('/p', 'nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('plays reply packets: BLOCKED_ON blocks, ERROR fails with AGENT_ERROR', async () => {
    const { gateway, events } = await running();
    gateway.backend.ask('/p', 'a1', 'a2', 'build it');
    await settle();
    gateway.backend.reply('a2', { signal: 'BLOCKED_ON', context: 'no access to the registry' });
    await settle();
    expect(ofType(events, 'agentActivity').at(-1)).toMatchObject({ activity: 'blocked', blockedOn: 'no access to the registry' });

    gateway.backend.reply('a2', { signal: 'ERROR', context: 'gave up' });
    await settle();
    expect(ofType(events, 'delegation').at(-1)).toMatchObject({ state: 'failed', reason: 'AGENT_ERROR' });
    const last = ofType(events, 'agentActivity').at(-1)!;
    expect(last).toMatchObject({ activity: 'idle' });
    expect(last).not.toHaveProperty('blockedOn');
  });

  it('asks the user on ESCALATE until decide; a second decide is NOT_FOUND', async () => {
    const { gateway, events } = await running();
    gateway.backend.ask('/p', 'a1', 'a2', 'pick a database');
    await settle();
    const ticket = gateway.backend.reply('a2', { signal: 'ESCALATE', options: ['Postgres', 'SQLite'] })!;
    await settle();
    expect(ofType(events, 'escalation')).toEqual([
      { type: 'escalation', root: '/p', ticket, agentId: 'a2', options: ['Postgres', 'SQLite'], task: 'pick a database' },
    ]);
    await expect(gateway.orchestration.decide('/p', ticket, 'SQLite')).resolves.toBeNull();
    await settle();
    expect(ofType(events, 'escalationResolved')).toEqual([{ type: 'escalationResolved', root: '/p', ticket, choice: 'SQLite' }]);
    await expect(gateway.orchestration.decide('/p', ticket, 'again')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('withdraws an agent’s questions when its session ends', async () => {
    const { gateway, events, sessionId } = await running();
    const ticket = gateway.backend.escalate('a2', ['yes', 'no']);
    gateway.exit(sessionId, 0);
    await settle();
    expect(ofType(events, 'escalationResolved')).toEqual([{ type: 'escalationResolved', root: '/p', ticket, choice: null }]);
  });

  it('answers the graph with the delegations not done', async () => {
    const { gateway } = await running();
    gateway.backend.ask('/p', 'a1', 'a2', 'one');
    gateway.backend.ask('/p', 'a1', 'a2', 'two');
    await gateway.orchestration.send('/p', ['a1'], 'three'); // Alpha is not running: queued
    await expect(gateway.orchestration.graph('/p')).resolves.toEqual([
      { ticket: 't1', from: 'a1', to: 'a2', kind: 'ask', state: 'active' },
      { ticket: 't2', from: 'a1', to: 'a2', kind: 'ask', state: 'queued' },
      { ticket: 't3', from: 'user', to: 'a1', kind: 'message', state: 'queued' },
    ]);
    gateway.backend.finishTurn('a2');
    expect((await gateway.orchestration.graph('/p')).map((d) => [d.ticket, d.state])).toEqual([
      ['t2', 'active'],
      ['t3', 'queued'],
    ]);
  });

  it('stores a matrix (only declared keys), refuses unknown signals, and enforces it on sends', async () => {
    const { gateway } = await running();
    await expect(gateway.agents.ipc('/p', 'a2')).resolves.toBeNull();
    await expect(gateway.agents.setIpc('/p', 'a2', { receivesFrom: ['Alpha'], signals: undefined })).resolves.toEqual({ receivesFrom: ['Alpha'] });
    await expect(gateway.agents.setIpc('/p', 'a2', { signals: ['SHOUT'] })).rejects.toMatchObject({ code: 'INVALID' });
    await expect(gateway.agents.ipc('/p', 'a2')).resolves.toEqual({ receivesFrom: ['Alpha'] });

    const [refused] = await gateway.orchestration.send('/p', ['a2'], 'hello');
    expect(refused.error).toEqual({ code: 'FORBIDDEN', message: "Beta's ipc.receives_from [Alpha] does not include human" });
    expect(gateway.backend.ask('/p', 'a1', 'a2', 'fine').ticket).toBe('t1');

    await expect(gateway.agents.setIpc('/p', 'a2', {})).resolves.toBeNull();
    await expect(gateway.agents.ipc('/p', 'a2')).resolves.toBeNull();
  });
});
