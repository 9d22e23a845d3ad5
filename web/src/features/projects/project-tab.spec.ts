import { screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../lib/ports';
import { MockGateway } from '../../lib/adapters/mock';
import { agent, harness, layoutDoc, openProject, project, settle, splitOf } from '../../test/harness';
import { findLeaf, leaves } from '../../lib/domain/layout-tree';
import { ProjectTab } from './project-tab.svelte';

const alpha = agent('a1', 'Alpha');
const beta = agent('a2', 'Beta');
const noNotices = { report: () => {}, resolved: () => {} };

describe('agents.json edited on disk', () => {
  it('lists the agents again when the backend says they changed', async () => {
    const h = harness({ projects: [project('/p', { agents: [alpha] })] });
    await openProject(h);
    expect(screen.getAllByTestId('agent-item').map((c) => c.dataset.agentId)).toEqual(['a1']);
    h.gateway.backend.editAgentsOnDisk('/p', [alpha, beta]);
    await settle();
    expect(screen.getAllByTestId('agent-item').map((c) => c.dataset.agentId)).toEqual(['a1', 'a2']);
    expect(h.gateway.callsOf('agents.list')).toEqual([['/p']]);
  });
});

describe('the resume strip of a tab', () => {
  it('drops the error of a failed row once the agent runs', async () => {
    const resumable = { nodeId: 'n1', agentId: 'a1', agentName: 'Alpha', profileId: 'shell', profileName: 'Shell', conversationId: 'x', resumeId: null, how: 'fresh' as const, note: 'relaunches' };
    const gateway = new MockGateway({ projects: [project('/p', { agents: [alpha] })], resumable: { '/p': [resumable] } });
    const tab = new ProjectTab(await gateway.projects.open('/p'), gateway, noNotices);
    await tab.resume.load();
    gateway.failNext('resume.answer', new GatewayError('CORRUPT_FILE', 'permissions.json: not launched'));
    await tab.resume.answer('n1', 'resume');
    expect(tab.resume.rows[0].state).toBe('failed');
    tab.agentStateChanged('a1', 'running', 's9');
    expect(tab.resume.rows[0]).toMatchObject({ state: 'fresh', message: 'running now (launched another way)' });
    tab.dispose();
  });
});

describe('a tab opening a project', () => {
  it('shows who works for whom from before it opened (the backend graph), on the cards and in the cells', async () => {
    const h = harness({ projects: [project('/p', { agents: [alpha, beta], layouts: layoutDoc(splitOf(['n1', 'n2'])) })] });
    // Delegations from before this window opened the project: no push of them reached it.
    await h.gateway.agents.launch('/p', 'a2', 'n2', 80, 24);
    await new Promise((resolve) => setTimeout(resolve, 250)); // Beta's launch settles
    h.gateway.backend.ask('/p', 'a1', 'a2', 'review');
    await settle();

    await openProject(h);
    await settle();
    const card = (id: string) => screen.getAllByTestId('agent-item').find((c) => c.dataset.agentId === id)!;
    expect(within(card('a1')).getByTestId('agent-waiting-on')).toHaveTextContent('waiting on Beta');
    expect(within(card('a2')).getByTestId('agent-working-for')).toHaveTextContent('for Alpha');
    const betaCell = screen.getAllByTestId('cell').find((c) => c.dataset.nodeId === 'n2')!;
    expect(within(betaCell).getByTestId('delegation-badge')).toHaveTextContent('⇠ from Alpha');
  });

  it('lets a push heard during the read win over the older snapshot', async () => {
    const gateway = new MockGateway({ projects: [project('/p', { agents: [alpha, beta] })] });
    gateway.backend.ask('/p', 'a1', 'a2', 'review'); // t1, queued (Beta not running)
    const dto = await gateway.projects.open('/p');
    const tab = new ProjectTab(dto, gateway, noNotices);
    tab.delegationChanged({ ticket: 't1', from: 'a1', to: 'a2', kind: 'ask', state: 'done' });
    await settle();
    expect(tab.delegation('t1')?.state).toBe('done');
    tab.dispose();
  });

  it('leaves the delegations to the pushes when the graph cannot be read', async () => {
    const gateway = new MockGateway({ projects: [project('/p', { agents: [alpha, beta] })] });
    gateway.failNext('orchestration.graph', new GatewayError('INTERNAL', 'orchestrator gone'));
    const tab = new ProjectTab(await gateway.projects.open('/p'), gateway, noNotices);
    await settle();
    expect(tab.delegations).toEqual([]);
    tab.delegationChanged({ ticket: 't2', from: 'user', to: 'a2', kind: 'message', state: 'queued' });
    expect(tab.delegations.map((d) => d.ticket)).toEqual(['t2']);
    tab.dispose();
  });
});

describe('an edit that hides a running session as a side effect', () => {
  it('says which run on in the background and how to get them back', async () => {
    // Trial finding: merging a cell whose shell ran `sleep 300` hid it without a word.
    const h = harness({ projects: [project('/p')] });
    await h.workspace.start();
    await h.workspace.open('/p');
    const tab = h.workspace.activeTab!;
    const first = leaves(tab.layoutRoot)[0].id;
    const second = (await tab.splitCell(first, 'row'))!;
    await tab.openShell(first, 80, 24);
    await tab.openShell(second, 80, 24);
    await settle();
    const hidden = tab.sessions.find((s) => s.sessionId === findLeaf(tab.layoutRoot, second)?.session)!;
    expect(await tab.editLayout({ kind: 'merge', nodeIds: [first, second] })).toBe(true);
    const told = () => h.workspace.toasts.list.map((t) => t.message);
    expect(told()).toEqual([
      `${hidden.title} runs on in the background: undo (Ctrl+Alt+Z) or "Show ${hidden.title}" in an empty cell brings it back`,
    ]);
    await tab.splitCell(leaves(tab.layoutRoot)[0].id, 'column'); // hides nothing: says nothing
    expect(told()).toHaveLength(1);
  });
});

describe('switching named layouts', () => {
  it('asks again which agents of the layout now shown to offer for resume', async () => {
    // Trial finding: agents that ran in a layout not active at quit were never offered.
    const h = harness({ projects: [project('/p')] });
    await h.workspace.start();
    await h.workspace.open('/p');
    const tab = h.workspace.activeTab!;
    await settle();
    const asked = () => h.gateway.callsOf('resume.pending').length;
    const before = asked();
    expect(await tab.editNamedLayout({ kind: 'createLayout', name: 'Work' })).toBeNull();
    expect(asked()).toBe(before);
    const first = tab.layouts!.layouts[0].id;
    expect(await tab.editNamedLayout({ kind: 'switchLayout', layoutId: first })).toBeNull();
    await settle();
    expect(asked()).toBe(before + 1);
  });
});
