import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../lib/ports';
import { agent, harness, openProject, project, settle } from '../../test/harness';

const alpha = agent('a1', 'Alpha');
const beta = agent('a2', 'Beta');
const gamma = agent('a3', 'Gamma');

async function panel(options: { inboxCapacity?: number } = {}) {
  const h = harness({ projects: [project('/p', { agents: [alpha, beta, gamma] })], inboxCapacity: options.inboxCapacity });
  await openProject(h);
  return h;
}

const card = (agentId: string) => screen.getAllByTestId('agent-item').find((c) => c.dataset.agentId === agentId)!;

describe('agent cards show what agents are doing', () => {
  it('shows activity, queue depth and who an agent works for or waits on, from the pushes', async () => {
    const h = await panel();
    expect(within(card('a2')).getByTestId('agent-activity')).toHaveAttribute('data-activity', 'stopped');
    expect(within(card('a2')).queryByTestId('agent-queue')).not.toBeInTheDocument();

    h.gateway.push({
      events: [
        { type: 'agentActivity', root: '/p', agentId: 'a2', activity: 'busy', queueDepth: 3, ticket: 't1' },
        { type: 'delegation', root: '/p', ticket: 't1', from: 'a1', to: 'a2', kind: 'ask', state: 'active' },
        { type: 'delegation', root: '/p', ticket: 't2', from: 'a2', to: 'a3', kind: 'ask', state: 'queued' },
      ],
    });
    await settle();

    const b = card('a2');
    expect(within(b).getByTestId('agent-activity')).toHaveAttribute('data-activity', 'busy');
    expect(within(b).getByTestId('agent-queue')).toHaveTextContent('+3 queued');
    expect(within(b).getByTestId('agent-working-for')).toHaveTextContent('for Alpha');
    expect(within(b).getByTestId('agent-waiting-on')).toHaveTextContent('waiting on Gamma');
    expect(within(card('a1')).getByTestId('agent-waiting-on')).toHaveTextContent('waiting on Beta');

    h.gateway.push({ events: [{ type: 'agentActivity', root: '/p', agentId: 'a2', activity: 'waiting', queueDepth: 0 }] });
    await settle();
    expect(within(card('a2')).getByTestId('agent-activity')).toHaveAttribute('data-activity', 'waiting');
    expect(within(card('a2')).queryByTestId('agent-queue')).not.toBeInTheDocument();
  });

  it('says "waiting on" only for an ask, never for a message', async () => {
    const h = await panel();
    h.gateway.push({
      events: [
        { type: 'delegation', root: '/p', ticket: 'm1', from: 'a1', to: 'a2', kind: 'message', state: 'queued' },
        { type: 'delegation', root: '/p', ticket: 'm2', from: 'a3', to: 'a2', kind: 'message', state: 'active' },
      ],
    });
    await settle();
    expect(within(card('a1')).queryByTestId('agent-waiting-on')).not.toBeInTheDocument();
    expect(within(card('a3')).queryByTestId('agent-waiting-on')).not.toBeInTheDocument();
    expect(within(card('a2')).getByTestId('agent-working-for')).toHaveTextContent('for Gamma');

    h.gateway.push({ events: [{ type: 'delegation', root: '/p', ticket: 't3', from: 'a1', to: 'a2', kind: 'ask', state: 'queued' }] });
    await settle();
    expect(within(card('a1')).getByTestId('agent-waiting-on')).toHaveTextContent('waiting on Beta');
  });

  it('keeps the whole name available when the queue badge shows', async () => {
    const h = await panel();
    h.gateway.push({ events: [{ type: 'agentActivity', root: '/p', agentId: 'a2', activity: 'busy', queueDepth: 4 }] });
    await settle();
    expect(within(card('a2')).getByText('Beta')).toHaveAttribute('title', 'Beta');
    expect(within(card('a2')).getByTestId('agent-queue')).toHaveTextContent('+4 queued');
  });

  it('lets an ended delegation drop out after a moment', async () => {
    const h = await panel();
    h.gateway.push({ events: [{ type: 'delegation', root: '/p', ticket: 't1', from: 'a1', to: 'a2', kind: 'ask', state: 'active' }] });
    await settle();
    expect(within(card('a2')).getByTestId('agent-working-for')).toBeInTheDocument();
    h.gateway.push({ events: [{ type: 'delegation', root: '/p', ticket: 't1', from: 'a1', to: 'a2', kind: 'ask', state: 'done' }] });
    await settle();
    expect(within(card('a2')).queryByTestId('agent-working-for')).not.toBeInTheDocument();
    expect(h.workspace.activeTab!.delegations).toHaveLength(1);
    await waitFor(() => expect(h.workspace.activeTab!.delegations).toHaveLength(0), { timeout: 6000 });
  }, 10_000);
});

describe('Send task…', () => {
  it('sends the text to the agent and closes', async () => {
    const h = await panel();
    const user = userEvent.setup();
    await user.click(within(card('a2')).getByTestId('send-task'));
    const dialog = screen.getByTestId('send-dialog');
    expect(dialog).toHaveAccessibleName('Send a task to Beta');
    expect(screen.getByTestId('task-text')).toHaveFocus();
    // It says what it sends: a Shell agent's `idea reply` to a message is refused.
    expect(screen.getByTestId('send-note')).toHaveTextContent('It reaches the agent as a message from you, queued while busy; a message needs no reply.');
    await user.type(screen.getByTestId('task-text'), 'review the diff');
    await user.click(screen.getByTestId('task-submit'));

    await waitFor(() => expect(screen.queryByTestId('send-dialog')).not.toBeInTheDocument());
    expect(h.gateway.callsOf('orchestration.send')).toEqual([['/p', ['a2'], 'review the diff']]);
    await settle();
    expect(within(card('a2')).getByTestId('agent-queue')).toHaveTextContent('+1 queued'); // Beta is not running
  });

  it('sends with Ctrl+Enter and cancels with Escape', async () => {
    const h = await panel();
    const user = userEvent.setup();
    await user.click(within(card('a1')).getByTestId('send-task'));
    await user.type(screen.getByTestId('task-text'), 'first{Control>}{Enter}{/Control}');
    await waitFor(() => expect(screen.queryByTestId('send-dialog')).not.toBeInTheDocument());
    expect(h.gateway.callsOf('orchestration.send')).toEqual([['/p', ['a1'], 'first']]);

    await user.click(within(card('a1')).getByTestId('send-task'));
    await user.type(screen.getByTestId('task-text'), 'never{Escape}');
    expect(screen.queryByTestId('send-dialog')).not.toBeInTheDocument();
    expect(h.gateway.callsOf('orchestration.send')).toHaveLength(1);
  });

  it('keeps the text and shows the error when the mailbox is full', async () => {
    const h = await panel({ inboxCapacity: 0 });
    const user = userEvent.setup();
    await user.click(within(card('a2')).getByTestId('send-task'));
    await user.type(screen.getByTestId('task-text'), 'one more');
    await user.click(screen.getByTestId('task-submit'));

    const error = await screen.findByTestId('send-error');
    expect(error).toHaveTextContent("Beta — Beta's inbox is full (0 waiting)");
    expect(error).not.toHaveTextContent('INBOX_FULL');
    expect(error).toHaveAttribute('title', 'INBOX_FULL');
    expect(error.dataset.agentId).toBe('a2');
    expect(screen.getByTestId('send-dialog')).toBeInTheDocument();
    expect(screen.getByTestId('task-text')).toHaveValue('one more');
    expect(h.gateway.callsOf('orchestration.send')).toHaveLength(1);
  });

  it('keeps the text when the call itself fails', async () => {
    const h = await panel();
    h.gateway.failNext('orchestration.send', new GatewayError('INTERNAL', 'bridge down'));
    await fireEvent.click(within(card('a2')).getByTestId('send-task'));
    await fireEvent.input(screen.getByTestId('task-text'), { target: { value: 'keep me' } });
    await fireEvent.click(screen.getByTestId('task-submit'));
    const error = await screen.findByTestId('send-error');
    expect(error.textContent?.trim()).toBe('bridge down');
    expect(error).toHaveAttribute('data-code', 'INTERNAL');
    expect(screen.getByTestId('task-text')).toHaveValue('keep me');
  });

  it('gives the keyboard back to the terminal that had it once the dialog closes', async () => {
    const h = await panel();
    const user = userEvent.setup();
    await user.click(screen.getByTestId('open-shell'));
    await screen.findByTestId('terminal');
    const terminalInput = () => screen.getByTestId('terminal').querySelector('textarea')!;
    await waitFor(() => expect(terminalInput()).toHaveFocus());

    await user.click(within(card('a2')).getByTestId('send-task'));
    expect(screen.getByTestId('task-text')).toHaveFocus();
    await user.type(screen.getByTestId('task-text'), 'review{Control>}{Enter}{/Control}');
    await waitFor(() => expect(screen.queryByTestId('send-dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(terminalInput()).toHaveFocus());

    await user.click(within(card('a2')).getByTestId('send-task'));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(terminalInput()).toHaveFocus());
    expect(h.gateway.callsOf('orchestration.send')).toHaveLength(1);
  });

  it('sends nothing without a text', async () => {
    const h = await panel();
    await fireEvent.click(within(card('a2')).getByTestId('send-task'));
    await fireEvent.click(screen.getByTestId('task-submit'));
    expect(screen.getByTestId('send-error')).toHaveTextContent('Write the task first.');
    expect(h.gateway.callsOf('orchestration.send')).toEqual([]);
  });
});

describe('Send to several…', () => {
  it('sends one text to the checked agents', async () => {
    const h = await panel();
    const user = userEvent.setup();
    await user.click(screen.getByTestId('send-several'));
    const boxes = screen.getAllByTestId('send-target');
    expect(boxes.map((b) => b.dataset.agentId)).toEqual(['a1', 'a2', 'a3']);
    await user.click(boxes[2]);
    await user.click(boxes[0]);
    await user.type(screen.getByTestId('task-text'), 'status report please');
    await user.click(screen.getByTestId('task-submit'));

    await waitFor(() => expect(screen.queryByTestId('send-dialog')).not.toBeInTheDocument());
    expect(h.gateway.callsOf('orchestration.send')).toEqual([['/p', ['a1', 'a3'], 'status report please']]);
  });

  it('shows each refusing target, keeps the text, and leaves only the refused ones checked', async () => {
    const h = await panel({ inboxCapacity: 1 });
    await h.workspace.activeTab!.sendTask(['a2'], 'fills Beta');
    const user = userEvent.setup();
    await user.click(screen.getByTestId('send-several'));
    for (const box of screen.getAllByTestId('send-target')) await user.click(box);
    await user.type(screen.getByTestId('task-text'), 'everyone');
    await user.click(screen.getByTestId('task-submit'));

    const errors = await screen.findAllByTestId('send-error');
    expect(errors.map((e) => e.dataset.agentId)).toEqual(['a2']);
    expect(errors[0]).toHaveTextContent("Beta — Beta's inbox is full (1 waiting)");
    expect(errors[0]).toHaveAttribute('title', 'INBOX_FULL');
    expect(screen.getByTestId('task-text')).toHaveValue('everyone');
    const checked = screen.getAllByTestId('send-target').filter((b) => (b as HTMLInputElement).checked);
    expect(checked.map((b) => b.dataset.agentId)).toEqual(['a2']);
    expect(screen.getAllByTestId('send-sent').map((s) => s.dataset.agentId)).toEqual(['a1', 'a3']);

    await user.click(screen.getByTestId('task-submit'));
    expect(h.gateway.callsOf('orchestration.send').at(-1)).toEqual(['/p', ['a2'], 'everyone']);
  });

  it('asks for at least one agent', async () => {
    const h = await panel();
    await fireEvent.click(screen.getByTestId('send-several'));
    await fireEvent.input(screen.getByTestId('task-text'), { target: { value: 'to whom?' } });
    await fireEvent.click(screen.getByTestId('task-submit'));
    expect(screen.getByTestId('send-error')).toHaveTextContent('Pick at least one agent.');
    expect(h.gateway.callsOf('orchestration.send')).toEqual([]);
  });
});
