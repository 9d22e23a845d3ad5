import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { GatewayError, type IpcMatrix } from '../../lib/ports';
import { agent, harness, openProject, project, settle } from '../../test/harness';

async function panel(ipc: Record<string, IpcMatrix> = {}) {
  const h = harness({ projects: [project('/p', { agents: [agent('a1', 'Alpha'), agent('a2', 'Beta'), agent('a3', 'Gamma')] })], ipc });
  await openProject(h);
  await settle();
  return h;
}

const card = (agentId: string) => screen.getAllByTestId('agent-item').find((c) => c.dataset.agentId === agentId)!;
const field = (name: string) => screen.getAllByTestId('ipc-field').find((f) => f.dataset.field === name)!;
const any = (name: string) => within(field(name)).getByTestId('ipc-any');
const choice = (name: string, value: string) => within(field(name)).getAllByTestId('ipc-choice').find((c) => c.dataset.value === value)!;
const choices = (name: string) => within(field(name)).getAllByTestId('ipc-choice').map((c) => c.dataset.value);
const ticked = (name: string) =>
  within(field(name))
    .getAllByTestId('ipc-choice')
    .filter((c) => (c as HTMLInputElement).checked)
    .map((c) => c.dataset.value);

async function openEditor(agentId: string) {
  await fireEvent.click(within(card(agentId)).getByTestId('edit-ipc'));
  const editor = screen.getByTestId('ipc-editor');
  await waitFor(() => expect(within(editor).queryByText('Loading…')).not.toBeInTheDocument());
  return editor;
}

describe('the access matrix on the cards', () => {
  it('summarizes a declared matrix, and nothing for an unrestricted agent', async () => {
    await panel({ a2: { receivesFrom: ['human'], sendsTo: ['Alpha'] } });
    expect(within(card('a2')).getByTestId('agent-ipc')).toHaveTextContent('from: human · to: Alpha');
    expect(within(card('a1')).queryByTestId('agent-ipc')).not.toBeInTheDocument();
  });

  it('says when a matrix cannot be read', async () => {
    const h = harness({ projects: [project('/p', { agents: [agent('a2', 'Beta')] })] });
    h.gateway.failNext('agents.ipc', new GatewayError('INVALID', 'ipc.sends_to: expected a list of names'));
    await openProject(h);
    const warning = await within(card('a2')).findByTestId('agent-ipc-error');
    expect(warning).toHaveAttribute('title', 'ipc.sends_to: expected a list of names');
  });
});

describe('the access matrix on the cards, as its persona is edited on disk', () => {
  it('says it is unreadable once the backend reports its persona, and shows it again once fixed', async () => {
    const h = await panel({ a2: { receivesFrom: ['human'], sendsTo: ['Alpha'] } });
    expect(within(card('a2')).getByTestId('agent-ipc')).toHaveTextContent('from: human · to: Alpha');
    const file = '/p/.ideai/agents/beta.md';
    h.gateway.failNext('agents.ipc', new GatewayError('INVALID', `${file}: ipc.sends_to: expected a list of names`));
    h.workspace.handlePush({ events: [{ type: 'problem', root: '/p', file, message: 'ipc.sends_to: expected a list of names' }] });
    const warning = await within(card('a2')).findByTestId('agent-ipc-error');
    expect(warning.getAttribute('title')).toContain('ipc.sends_to: expected a list of names');
    expect(within(card('a1')).queryByTestId('agent-ipc-error')).not.toBeInTheDocument(); // another persona: not re-read

    h.workspace.handlePush({ events: [{ type: 'problemResolved', root: '/p', file }] });
    await waitFor(() => expect(within(card('a2')).getByTestId('agent-ipc')).toHaveTextContent('from: human · to: Alpha'));
  });
});

describe('the access matrix editor', () => {
  it('starts "Unrestricted" for an agent without a matrix, and declares the fields unticked from "any"', async () => {
    const h = await panel();
    const user = userEvent.setup();
    await openEditor('a2');
    expect(screen.getByTestId('ipc-unrestricted')).toBeChecked();
    expect(screen.queryAllByTestId('ipc-field')).toHaveLength(0);

    await user.click(screen.getByTestId('ipc-unrestricted'));
    expect(screen.getAllByTestId('ipc-field').map((f) => f.dataset.field)).toEqual(['receivesFrom', 'sendsTo', 'signals', 'zoneAccess']);
    expect(screen.getAllByTestId('ipc-any').every((a) => (a as HTMLInputElement).checked)).toBe(true);
    expect(screen.getByTestId('ipc-nothing-declared')).toBeInTheDocument();

    await user.click(any('receivesFrom'));
    expect(choices('receivesFrom')).toEqual(['human', '*', 'Alpha', 'Gamma']);
    await user.click(choice('receivesFrom', 'human'));
    await user.click(any('signals'));
    expect(choices('signals')).toEqual(['SPAWN', 'RETURN', 'BLOCKED_ON', 'CHECKPOINT', 'HANDOFF', 'ESCALATE', 'ERROR']);
    await user.click(choice('signals', 'SPAWN'));
    await user.click(choice('signals', 'RETURN'));
    await user.click(any('zoneAccess'));
    expect(choices('zoneAccess')).toEqual(['kernel', 'project', 'personal']);
    await user.click(any('zoneAccess')); // back to "any": left out
    await user.click(screen.getByTestId('ipc-save'));

    await waitFor(() => expect(screen.queryByTestId('ipc-editor')).not.toBeInTheDocument());
    expect(h.gateway.callsOf('agents.setIpc')).toEqual([['/p', 'a2', { receivesFrom: ['human'], signals: ['SPAWN', 'RETURN'] }]]);
    expect(within(card('a2')).getByTestId('agent-ipc')).toHaveTextContent('from: human · signals: SPAWN, RETURN');
  }, 15_000);

  it('shows a declared matrix ticked, and "Unrestricted" removes it', async () => {
    const h = await panel({ a2: { sendsTo: ['Alpha'], zoneAccess: [] } });
    const user = userEvent.setup();
    await openEditor('a2');
    expect(screen.getByTestId('ipc-unrestricted')).not.toBeChecked();
    expect(any('receivesFrom')).toBeChecked();
    expect(ticked('sendsTo')).toEqual(['Alpha']);
    expect(any('zoneAccess')).not.toBeChecked();
    expect(ticked('zoneAccess')).toEqual([]);
    expect(within(field('zoneAccess')).getByText(/Only no zone/)).toBeInTheDocument();

    await user.click(screen.getByTestId('ipc-unrestricted'));
    await user.click(screen.getByTestId('ipc-save'));
    await waitFor(() => expect(screen.queryByTestId('ipc-editor')).not.toBeInTheDocument());
    expect(h.gateway.callsOf('agents.setIpc')).toEqual([['/p', 'a2', null]]);
    expect(within(card('a2')).queryByTestId('agent-ipc')).not.toBeInTheDocument();
    await expect(h.gateway.agents.ipc('/p', 'a2')).resolves.toBeNull();
  });

  it('keeps what the file names beyond the choices, matching names case-insensitively', async () => {
    const h = await panel({ a2: { receivesFrom: ['Ghost', 'alpha', 'user'] } });
    await openEditor('a2');
    expect(choices('receivesFrom')).toEqual(['human', '*', 'Alpha', 'Gamma', 'Ghost', 'user']);
    expect(ticked('receivesFrom')).toEqual(['Alpha', 'Ghost', 'user']);
    await fireEvent.click(screen.getByTestId('ipc-save'));
    await waitFor(() => expect(h.gateway.callsOf('agents.setIpc')).toEqual([['/p', 'a2', { receivesFrom: ['Ghost', 'alpha', 'user'] }]]));
  });

  it('shows a refused save, keeps the draft and marks the field; a retry saves it', async () => {
    const h = await panel();
    const user = userEvent.setup();
    await openEditor('a2');
    await user.click(screen.getByTestId('ipc-unrestricted'));
    await user.click(any('sendsTo'));
    await user.click(choice('sendsTo', 'Gamma'));
    h.gateway.failNext('agents.setIpc', new GatewayError('INVALID', "ipc.zone_access: unknown zone 'x'", { field: 'zone_access' }));
    await user.click(screen.getByTestId('ipc-save'));

    expect(await screen.findByTestId('ipc-error')).toHaveTextContent("Not saved — INVALID: ipc.zone_access: unknown zone 'x'");
    expect(screen.getByTestId('ipc-editor')).toBeInTheDocument();
    expect(ticked('sendsTo')).toEqual(['Gamma']);
    expect(field('zoneAccess')).toHaveAttribute('data-invalid', 'true');

    await user.click(screen.getByTestId('ipc-save'));
    await waitFor(() => expect(screen.queryByTestId('ipc-editor')).not.toBeInTheDocument());
    expect(h.gateway.callsOf('agents.setIpc').at(-1)).toEqual(['/p', 'a2', { sendsTo: ['Gamma'] }]);
  });

  it('cannot save a matrix it could not read; Retry reads it again', async () => {
    const h = await panel({ a2: { sendsTo: ['Alpha'] } });
    h.gateway.failNext('agents.ipc', new GatewayError('INVALID', 'front matter: not YAML'));
    await fireEvent.click(within(card('a2')).getByTestId('edit-ipc'));
    expect(await screen.findByTestId('ipc-error')).toHaveTextContent('Could not read the matrix: front matter: not YAML');
    expect(screen.getByTestId('ipc-save')).toBeDisabled();
    await fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(ticked('sendsTo')).toEqual(['Alpha']));
    expect(screen.getByTestId('ipc-save')).toBeEnabled();
  });

  it('closes unsaved on Escape or Cancel; "any" unticked again brings the choices back', async () => {
    const h = await panel({ a2: { signals: ['SPAWN'] } });
    const user = userEvent.setup();
    await openEditor('a2');
    await user.click(any('signals'));
    expect(screen.queryAllByTestId('ipc-choice')).toHaveLength(0);
    await user.click(any('signals'));
    expect(ticked('signals')).toEqual(['SPAWN']);
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('ipc-editor')).not.toBeInTheDocument();
    await openEditor('a2');
    await user.click(screen.getByTestId('ipc-cancel'));
    expect(screen.queryByTestId('ipc-editor')).not.toBeInTheDocument();
    expect(h.gateway.callsOf('agents.setIpc')).toEqual([]);
  });

  it('is what the orchestrator then enforces: a task from you to Beta is refused', async () => {
    await panel();
    const user = userEvent.setup();
    await openEditor('a2');
    await user.click(screen.getByTestId('ipc-unrestricted'));
    await user.click(any('receivesFrom'));
    await user.click(choice('receivesFrom', 'Alpha'));
    await user.click(screen.getByTestId('ipc-save'));
    await waitFor(() => expect(screen.queryByTestId('ipc-editor')).not.toBeInTheDocument());

    await user.click(within(card('a2')).getByTestId('send-task'));
    await user.type(screen.getByTestId('task-text'), 'hello');
    await user.click(screen.getByTestId('task-submit'));
    const refused = await screen.findByTestId('send-error');
    expect(refused).toHaveAttribute('data-code', 'FORBIDDEN');
    expect(refused).toHaveTextContent("Beta's ipc.receives_from [Alpha] does not include human");
  });
});
