import { describe, expect, it } from 'vitest';
import type { PushEvent } from '../ports';
import { agent, project, settle } from '../../test/harness';
import { MockGateway } from './mock';

/** A gateway whose pushes are collected, with agent Beta running in session s1. */
async function running(options: { inboxCapacity?: number; attach?: boolean } = {}) {
  const gateway = new MockGateway({
    projects: [project('/p', { agents: [agent('a1', 'Alpha'), agent('a2', 'Beta')] })],
    inboxCapacity: options.inboxCapacity,
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
        text: '[IdeA · task from user · ticket t1] review the diff (answer with idea_reply, ticket t1, or: idea reply --ticket t1 "…")',
      },
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
