import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../lib/ports';
import { agent, harness, openProject, project, settle } from '../../test/harness';

/** /p with Beta launched in n1 and working on a task from Alpha; /q open too and shown when `away`. */
async function betaAsks(options: { away?: boolean } = {}) {
  const h = harness({ projects: [project('/p', { agents: [agent('a1', 'Alpha'), agent('a2', 'Beta')] }), project('/q')] });
  await openProject(h, '/p');
  await h.workspace.activeTab!.launchAgent('a2', 'n1', 80, 24);
  await screen.findByTestId('terminal');
  await settle();
  h.gateway.backend.ask('/p', 'a1', 'a2', 'choose the storage for the cache');
  await settle();
  if (options.away) await h.workspace.open('/q');
  await settle();
  return h;
}

const prompt = () => screen.getByTestId('escalation');
const decisions = (h: Awaited<ReturnType<typeof betaAsks>>) => h.gateway.callsOf('orchestration.decide');

describe('an escalation', () => {
  it('asks at once in the shown tab: who, its task, one button per option; an option answers it', async () => {
    const h = await betaAsks();
    const ticket = h.gateway.backend.reply('a2', { signal: 'ESCALATE', options: ['Redis', 'SQLite'] })!;
    await settle();

    expect(prompt()).toHaveAttribute('data-ticket', ticket);
    expect(prompt()).toHaveAccessibleName('Beta needs your decision');
    expect(within(prompt()).getByTestId('escalation-task')).toHaveTextContent('Working on: choose the storage for the cache');
    expect(within(prompt()).getAllByTestId('escalation-option').map((b) => b.textContent)).toEqual(['Redis', 'SQLite']);
    expect(screen.queryByTestId('escalation-count')).not.toBeInTheDocument();
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument();

    await fireEvent.click(within(prompt()).getAllByTestId('escalation-option')[1]);
    await waitFor(() => expect(screen.queryByTestId('escalation')).not.toBeInTheDocument());
    expect(decisions(h)).toEqual([['/p', ticket, 'SQLite']]);
    expect(h.gateway.backend.decisions).toEqual([{ ticket, choice: 'SQLite' }]);
  });

  it('takes a free answer (Enter or Send), not an empty one', async () => {
    const h = await betaAsks();
    const ticket = h.gateway.backend.escalate('a2', ['A', 'B']);
    await settle();
    const user = userEvent.setup();
    expect(screen.getByTestId('escalation-send')).toBeDisabled();
    await user.type(screen.getByTestId('escalation-text'), '  neither: use files  {Enter}');
    await waitFor(() => expect(screen.queryByTestId('escalation')).not.toBeInTheDocument());
    expect(decisions(h)).toEqual([['/p', ticket, 'neither: use files']]);
  });

  it('out of sight: a toast and the tab dot; the prompt shows when the tab is shown', async () => {
    const h = await betaAsks({ away: true });
    const ticket = h.gateway.backend.escalate('a2', ['yes', 'no']);
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent('Beta needs your decision');
    expect(screen.getByTestId('tab-p')).toContainElement(screen.getByTestId('tab-attention'));
    expect(screen.queryByTestId('escalation')).not.toBeInTheDocument();

    await fireEvent.click(within(toast).getByText('Beta needs your decision'));
    expect(h.workspace.activeRoot).toBe('/p');
    expect(prompt()).toHaveAttribute('data-ticket', ticket);
    expect(screen.queryByTestId('tab-attention')).not.toBeInTheDocument();
  });

  it('queues several: one at a time with a count, the next after an answer', async () => {
    const h = await betaAsks();
    const first = h.gateway.backend.escalate('a2', ['1', '2']);
    const second = h.gateway.backend.escalate('a1', ['x', 'y'], 'ship it');
    await settle();
    expect(screen.getAllByTestId('escalation')).toHaveLength(1);
    expect(prompt()).toHaveAttribute('data-ticket', first);
    expect(screen.getByTestId('escalation-count')).toHaveTextContent('1 of 2');

    await fireEvent.click(within(prompt()).getAllByTestId('escalation-option')[0]);
    await waitFor(() => expect(prompt()).toHaveAttribute('data-ticket', second));
    expect(prompt()).toHaveAccessibleName('Alpha needs your decision');
    expect(within(prompt()).getByTestId('escalation-task')).toHaveTextContent('ship it');
    expect(screen.queryByTestId('escalation-count')).not.toBeInTheDocument();
  });

  it('closes when it is answered in another window, toast included', async () => {
    const h = await betaAsks({ away: true });
    const ticket = h.gateway.backend.escalate('a2', ['yes', 'no']);
    await screen.findByTestId('toast');
    h.gateway.backend.resolveEscalation(ticket, 'yes');
    await waitFor(() => expect(screen.queryByTestId('toast')).not.toBeInTheDocument());
    await fireEvent.click(screen.getByTestId('tab-p'));
    expect(screen.queryByTestId('escalation')).not.toBeInTheDocument();
  });

  it('closes when its agent goes away (withdrawn)', async () => {
    const h = await betaAsks();
    h.gateway.backend.escalate('a2', ['yes', 'no']);
    await settle();
    expect(prompt()).toBeInTheDocument();
    h.gateway.exit(h.workspace.activeTab!.agents.find((a) => a.agentId === 'a2')!.sessionId!, 0);
    await waitFor(() => expect(screen.queryByTestId('escalation')).not.toBeInTheDocument());
  });

  it('stays with the error and the typed answer when decide fails; a retry goes through', async () => {
    const h = await betaAsks();
    const ticket = h.gateway.backend.escalate('a2', ['yes', 'no']);
    await settle();
    h.gateway.failNext('orchestration.decide', new GatewayError('INTERNAL', 'bridge down'));
    const user = userEvent.setup();
    await user.type(screen.getByTestId('escalation-text'), 'yes, but later');
    await user.click(screen.getByTestId('escalation-send'));

    expect(await screen.findByTestId('escalation-error')).toHaveTextContent('INTERNAL: bridge down');
    expect(prompt()).toHaveAttribute('data-ticket', ticket);
    expect(screen.getByTestId('escalation-text')).toHaveValue('yes, but later');
    expect(screen.queryByTestId('escalation-dismiss')).not.toBeInTheDocument();

    await user.click(screen.getByTestId('escalation-send'));
    await waitFor(() => expect(screen.queryByTestId('escalation')).not.toBeInTheDocument());
    expect(decisions(h).map((c) => c[2])).toEqual(['yes, but later', 'yes, but later']);
    expect(h.gateway.backend.decisions).toEqual([{ ticket, choice: 'yes, but later' }]);
  });

  it('may be dismissed once the backend no longer has it', async () => {
    const h = await betaAsks();
    h.gateway.backend.escalate('a2', ['yes', 'no']);
    await settle();
    h.gateway.failNext('orchestration.decide', new GatewayError('NOT_FOUND', 'this question was already answered or withdrawn'));
    await fireEvent.click(within(prompt()).getAllByTestId('escalation-option')[0]);
    expect(await screen.findByTestId('escalation-error')).toHaveTextContent('already answered or withdrawn');
    await fireEvent.click(screen.getByTestId('escalation-dismiss'));
    expect(screen.queryByTestId('escalation')).not.toBeInTheDocument();
  });

  it('keeps a typed answer across tab switches', async () => {
    const h = await betaAsks();
    h.gateway.backend.escalate('a2', ['yes', 'no']);
    await settle();
    await fireEvent.input(screen.getByTestId('escalation-text'), { target: { value: 'half typed' } });
    await h.workspace.open('/q');
    await settle();
    expect(screen.queryByTestId('escalation')).not.toBeInTheDocument();
    await fireEvent.click(screen.getByTestId('tab-p'));
    expect(screen.getByTestId('escalation-text')).toHaveValue('half typed');
  });
  it('asked before this window opened the project: shown once it opens (orchestration.pending)', async () => {
    const h = await betaAsks();
    const ticket = h.gateway.backend.escalate('a2', ['keep', 'drop']);
    await settle();
    await h.workspace.close('/p');
    await settle();
    expect(screen.queryByTestId('escalation')).not.toBeInTheDocument();
    await h.workspace.open('/p');
    await settle();
    expect(await screen.findByTestId('escalation')).toHaveAttribute('data-ticket', ticket);
    expect(h.gateway.callsOf('orchestration.pending')).toContainEqual(['/p']);
  });
});
