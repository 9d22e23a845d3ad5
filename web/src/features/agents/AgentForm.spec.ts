import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import { GatewayError } from '../../lib/ports';
import { harness, project } from '../../test/harness';
import AgentsPanel from './AgentsPanel.svelte';

async function panel() {
  const h = harness({ projects: [project('/p')] });
  await h.workspace.reloadProfiles();
  await h.workspace.open('/p');
  render(AgentsPanel, { props: { tab: h.workspace.activeTab! }, context: h.context });
  return h;
}

describe('agents panel', () => {
  it('refuses to create an agent without a name', async () => {
    const h = await panel();
    await fireEvent.click(screen.getByTestId('new-agent'));
    await fireEvent.submit(screen.getByTestId('agent-form'));

    expect(await screen.findByTestId('agent-name-error')).toHaveTextContent('Name is required.');
    expect(h.gateway.callsOf('agents.create')).toHaveLength(0);
  });

  it('creates an agent with name, profile and persona, and lists it', async () => {
    const h = await panel();
    await fireEvent.click(screen.getByTestId('new-agent'));
    await fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'Reviewer' } });
    await fireEvent.change(screen.getByLabelText('Profile'), { target: { value: 'codex-cli' } });
    await fireEvent.input(screen.getByLabelText(/Persona/), { target: { value: '# Reviewer' } });
    await fireEvent.click(screen.getByTestId('agent-save'));

    await waitFor(() => expect(screen.queryByTestId('agent-form')).not.toBeInTheDocument());
    expect(h.gateway.callsOf('agents.create')).toEqual([['/p', { name: 'Reviewer', persona: '# Reviewer', profileId: 'codex-cli' }]]);
    expect(screen.getByTestId('agent-item')).toHaveTextContent('Reviewer');
    expect(screen.getByTestId('agent-item')).toHaveTextContent('Codex CLI');
  });

  it('refuses a duplicate name', async () => {
    const h = await panel();
    await h.workspace.activeTab!.createAgent({ name: 'Reviewer', persona: '', profileId: 'shell' });
    await fireEvent.click(screen.getByTestId('new-agent'));
    await fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'reviewer' } });
    await fireEvent.click(screen.getByTestId('agent-save'));
    expect(await screen.findByTestId('agent-name-error')).toHaveTextContent('already exists');
  });

  it("shows the backend's refusal of a field beside it, without the field's path", async () => {
    const h = await panel();
    h.gateway.failNext('agents.create', new GatewayError('INVALID', "agent.name: an agent named 'Reviewer' already exists", { field: 'name' }));
    await fireEvent.click(screen.getByTestId('new-agent'));
    await fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'Reviewer' } });
    await fireEvent.click(screen.getByTestId('agent-save'));
    expect(await screen.findByTestId('agent-name-error')).toHaveTextContent(/^an agent named 'Reviewer' already exists$/);
    expect(screen.getByTestId('agent-form')).toBeInTheDocument();
  });

  it('edits the persona of an existing agent and deletes it after confirmation', async () => {
    const h = await panel();
    await h.workspace.activeTab!.createAgent({ name: 'Coder', persona: 'old', profileId: 'shell' });
    await fireEvent.click(await screen.findByTestId('edit-agent'));
    await waitFor(() => expect(screen.getByLabelText(/Persona/)).toHaveValue('old'));
    await fireEvent.input(screen.getByLabelText(/Persona/), { target: { value: 'new' } });
    await fireEvent.click(screen.getByTestId('agent-save'));
    await waitFor(() => expect(h.gateway.callsOf('agents.update')).toHaveLength(1));
    expect(h.gateway.callsOf('agents.update')[0][2]).toMatchObject({ persona: 'new' });

    const confirm = vi.spyOn(window, 'confirm');
    await fireEvent.click(screen.getByTestId('delete-agent'));
    await fireEvent.click(screen.getByTestId('confirm-delete-agent'));
    await waitFor(() => expect(screen.queryByTestId('agent-item')).not.toBeInTheDocument());
    expect(confirm).not.toHaveBeenCalled();
  });
});
