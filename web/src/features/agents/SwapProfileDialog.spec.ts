import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../lib/ports';
import { agent, harness, openProject, project, settle } from '../../test/harness';

const card = (agentId: string) => screen.getAllByTestId('agent-item').find((c) => c.dataset.agentId === agentId)!;

async function panel() {
  const h = harness({ projects: [project('/p', { agents: [agent('a1', 'Sam', 'shell'), agent('a2', 'Cody', 'claude-code')] })] });
  await openProject(h);
  await settle();
  return h;
}

async function openSwap(agentId: string) {
  await fireEvent.click(within(card(agentId)).getByTestId('swap-profile'));
  return screen.getByTestId('swap-dialog');
}

const shownSession = () => screen.getByTestId('cell').querySelector('[data-testid="terminal"]')?.getAttribute('data-session-id');

describe('hot swap of an agent profile, from its card', () => {
  it('offers the other profiles and says what is kept and what is dropped', async () => {
    await panel();
    const dialog = await openSwap('a1');
    const options = within(dialog)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(options).toEqual(['Claude Code', 'Codex CLI', 'Gemini CLI', 'Aider']); // not Shell, its own
    expect(within(dialog).getByTestId('swap-profile-select')).toHaveFocus();
    const consequence = within(dialog).getByTestId('swap-consequence');
    expect(consequence).toHaveTextContent('Sam keeps its persona, memory, conversations and handoff');
    expect(consequence).toHaveTextContent("Shell's own session history is dropped");
    expect(within(dialog).getByTestId('swap-stopped')).toHaveTextContent('its next launch or headless turn uses Claude Code');
    expect(within(dialog).getByTestId('swap-confirm')).toHaveTextContent('Change profile');
  });

  it('changes only the profile of an agent that is not running', async () => {
    const h = await panel();
    const user = userEvent.setup();
    const dialog = await openSwap('a1');
    await user.selectOptions(within(dialog).getByTestId('swap-profile-select'), 'Claude Code');
    await user.click(within(dialog).getByTestId('swap-confirm'));
    await waitFor(() => expect(screen.queryByTestId('swap-dialog')).not.toBeInTheDocument());
    expect(h.gateway.callsOf('agents.swapProfile')).toEqual([['/p', 'a1', 'claude-code']]);
    expect(card('a1')).toHaveTextContent('Claude Code');
    expect(h.gateway.sessions.size).toBe(0); // nothing launched
  });

  it('stops a live agent and shows it relaunched under the new profile in the same cell', async () => {
    const h = await panel();
    const tab = h.workspace.activeTab!;
    await tab.launchAgent('a1', 'n1', 80, 24);
    await settle();
    const before = shownSession();
    expect(before).toBeTruthy();

    const user = userEvent.setup();
    const dialog = await openSwap('a1');
    expect(within(dialog).getByTestId('swap-live')).toHaveTextContent('Its live session stops');
    expect(within(dialog).getByTestId('swap-live')).toHaveTextContent('relaunches under Claude Code in the same cell');
    expect(within(dialog).getByTestId('swap-confirm')).toHaveTextContent('Stop and relaunch');
    await user.click(within(dialog).getByTestId('swap-confirm'));
    await waitFor(() => expect(screen.queryByTestId('swap-dialog')).not.toBeInTheDocument());
    await settle();

    const after = shownSession();
    expect(after).toBeTruthy();
    expect(after).not.toBe(before);
    expect(h.gateway.sessions.get(after!)?.alive).toBe(true);
    expect(h.gateway.sessions.get(before!)).toBeUndefined(); // ended, and no cell shows it
    expect(card('a1')).toHaveTextContent('Claude Code');
    expect(tab.agents.find((a) => a.agentId === 'a1')).toMatchObject({ running: true, sessionId: after, profileId: 'claude-code' });
  });

  it('keeps the dialog open with the backend’s words when the swap is refused', async () => {
    const h = await panel();
    const user = userEvent.setup();
    const dialog = await openSwap('a2');
    await user.selectOptions(within(dialog).getByTestId('swap-profile-select'), 'Gemini CLI');
    await user.click(within(dialog).getByTestId('swap-confirm'));
    const error = await within(dialog).findByTestId('swap-error');
    expect(error).toHaveTextContent('command not found: gemini (Cody keeps its profile and its session)');
    expect(error).toHaveAttribute('data-code', 'COMMAND_NOT_FOUND');
    expect(card('a2')).toHaveTextContent('Claude Code');

    h.gateway.failNext('agents.swapProfile', new GatewayError('TIMEOUT', "Cody's session did not end; its profile is unchanged"));
    await user.selectOptions(within(dialog).getByTestId('swap-profile-select'), 'Shell');
    await user.click(within(dialog).getByTestId('swap-confirm'));
    await waitFor(() => expect(within(dialog).getByTestId('swap-error')).toHaveAttribute('data-code', 'TIMEOUT'));
  });

  it('closes on Escape or Cancel without swapping', async () => {
    const h = await panel();
    const user = userEvent.setup();
    await openSwap('a1');
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('swap-dialog')).not.toBeInTheDocument();
    const dialog = await openSwap('a1');
    await user.click(within(dialog).getByTestId('swap-cancel'));
    expect(screen.queryByTestId('swap-dialog')).not.toBeInTheDocument();
    expect(h.gateway.callsOf('agents.swapProfile')).toEqual([]);
  });

  it('says so when no other profile is configured', async () => {
    const h = harness({
      profiles: [{ id: 'shell', name: 'Shell', command: 'sh', args: [], contextInjection: { strategy: 'env', var: 'IDEA_CONTEXT' } }],
      projects: [project('/p', { agents: [agent('a1', 'Sam', 'shell')] })],
    });
    await openProject(h);
    const dialog = await openSwap('a1');
    expect(within(dialog).getByTestId('swap-no-choice')).toHaveTextContent('No other profile is configured');
    expect(within(dialog).queryByTestId('swap-confirm')).not.toBeInTheDocument();
  });
});

describe('a swap whose relaunch fails', () => {
  it('shows the new profile on the card and leaves only Close', async () => {
    const h = await panel();
    const user = userEvent.setup();
    h.gateway.failNext(
      'agents.swapProfile',
      new GatewayError('NOT_FOUND', "Sam now uses Claude Code, but its relaunch failed: no cell 'n1'", { swapped: true, profileId: 'claude-code' }),
    );
    const dialog = await openSwap('a1');
    await user.click(within(dialog).getByTestId('swap-confirm'));
    const error = await within(dialog).findByTestId('swap-error');
    expect(error).toHaveTextContent('Sam now uses Claude Code, but its relaunch failed');
    expect(card('a1')).toHaveTextContent('Claude Code');
    expect(within(dialog).queryByTestId('swap-confirm')).not.toBeInTheDocument();
    expect(within(dialog).getByTestId('swap-profile-select')).toBeDisabled();
    await user.click(within(dialog).getByTestId('swap-cancel'));
    expect(screen.queryByTestId('swap-dialog')).not.toBeInTheDocument();
  });
});
