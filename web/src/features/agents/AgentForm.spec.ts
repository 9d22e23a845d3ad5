import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import { GatewayError } from '../../lib/ports';
import { BUILTIN_PROFILES } from '../../lib/adapters/mock-backend';
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

  it('says only ticked profiles are listed, with the way to tick more', async () => {
    // Trial finding: a duplicated profile (unticked) was missing from the list with no hint why.
    const h = await panel();
    await fireEvent.click(screen.getByTestId('new-agent'));
    const hint = screen.getByTestId('agent-profile-hint');
    expect(hint).toHaveTextContent('Only the profiles ticked in Profiles… are listed');
    await fireEvent.click(within(hint).getByRole('button', { name: 'Profiles…' }));
    expect(h.workspace.showWizard).toBe(true);
  });

  it('offers only ticked profiles, and keeps an agent whose profile was unticked editable', async () => {
    // a trial: an added ACP profile, unticked, was offered, then refused ("unknown profile")
    const profiles = [...BUILTIN_PROFILES];
    const h = harness({ projects: [project('/p')], profiles: [...profiles, { ...profiles[0], id: 'acp-agent', name: 'ACP agent', enabled: false }] });
    await h.workspace.reloadProfiles();
    await h.workspace.open('/p');
    render(AgentsPanel, { props: { tab: h.workspace.activeTab! }, context: h.context });
    await fireEvent.click(screen.getByTestId('new-agent'));
    const names = () => [...screen.getByLabelText<HTMLSelectElement>('Profile').options].map((o) => o.text);
    expect(names()).not.toContain('ACP agent');
    expect(names()).toContain(profiles[0].name);
    await fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));

    // the agent's profile unticked since: shown as such, and a rename goes through
    const agent = await h.workspace.activeTab!.createAgent({ name: 'Old', persona: '', profileId: profiles[0].id });
    h.gateway.backend.untick(agent.profileId);
    await h.workspace.reloadProfiles();
    await fireEvent.click(await screen.findByTestId('edit-agent'));
    expect(names()).toContain(`${profiles[0].name} (not ticked)`);
    await fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'Renamed' } });
    await fireEvent.click(screen.getByTestId('agent-save'));
    await waitFor(() => expect(screen.queryByTestId('agent-form')).not.toBeInTheDocument());
    expect(h.gateway.callsOf('agents.update').at(-1)?.[2]).toEqual({ name: 'Renamed' });
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

  it("drops its 'agents.json could not be read' error once the file is readable again", async () => {
    // Trial: the error stayed after the file was fixed (Create then worked).
    const h = await panel();
    await fireEvent.click(screen.getByTestId('new-agent'));
    await fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'Reviewer' } });
    h.gateway.push({ events: [{ type: 'problem', root: '/p', file: '/p/.ideai/agents.json', message: 'line 1: expected an object' }] });
    h.gateway.failNext('agents.create', new GatewayError('CORRUPT_FILE', '/p/.ideai/agents.json could not be read: line 1: expected an object'));
    await fireEvent.click(screen.getByTestId('agent-save'));
    const form = screen.getByTestId('agent-form');
    await waitFor(() => expect(form).toHaveTextContent('agents.json could not be read'));
    h.gateway.push({ events: [{ type: 'problemResolved', root: '/p', file: '/p/.ideai/agents.json' }] });
    await waitFor(() => expect(form).not.toHaveTextContent('could not be read'));
    expect(screen.getByLabelText('Name')).toHaveValue('Reviewer'); // nothing typed is lost
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

  it('saves no persona over an edit made on disk meanwhile: it says so and offers both versions', async () => {
    const h = await panel();
    const agent = await h.workspace.activeTab!.createAgent({ name: 'Coder', persona: 'as opened', profileId: 'shell' });
    await fireEvent.click(await screen.findByTestId('edit-agent'));
    await waitFor(() => expect(screen.getByLabelText(/Persona/)).toHaveValue('as opened'));
    h.gateway.backend.editPersonaOnDisk(agent.agentId, 'edited on disk');

    // a rename alone leaves the persona on disk as it is
    await fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'Coder 2' } });
    await fireEvent.click(screen.getByTestId('agent-save'));
    await waitFor(() => expect(screen.queryByTestId('agent-form')).not.toBeInTheDocument());
    expect(h.gateway.callsOf('agents.update').at(-1)?.[2]).toEqual({ name: 'Coder 2' }); // nor an unchanged profile
    expect(await h.gateway.agents.persona('/p', agent.agentId)).toBe('edited on disk');

    await fireEvent.click(await screen.findByTestId('edit-agent'));
    await waitFor(() => expect(screen.getByLabelText(/Persona/)).toHaveValue('edited on disk'));
    h.gateway.backend.editPersonaOnDisk(agent.agentId, 'edited again');
    await fireEvent.input(screen.getByLabelText(/Persona/), { target: { value: 'mine' } });
    await fireEvent.click(screen.getByTestId('agent-save'));
    expect(await screen.findByTestId('persona-conflict')).toHaveTextContent('changed on disk');
    expect(screen.getByTestId('persona-on-disk')).toHaveTextContent('edited again');
    expect(await h.gateway.agents.persona('/p', agent.agentId)).toBe('edited again');
    expect(screen.getByLabelText(/Persona/)).toHaveValue('mine'); // nothing of the edit lost

    await fireEvent.click(screen.getByTestId('persona-keep-mine'));
    await waitFor(() => expect(screen.queryByTestId('agent-form')).not.toBeInTheDocument());
    expect(h.gateway.callsOf('agents.update').at(-1)?.[2]).toMatchObject({ persona: 'mine', personaBase: 'edited again' });
    expect(await h.gateway.agents.persona('/p', agent.agentId)).toBe('mine');
  });

  it('takes the version on disk in place of the edit when asked', async () => {
    const h = await panel();
    const agent = await h.workspace.activeTab!.createAgent({ name: 'Coder', persona: 'as opened', profileId: 'shell' });
    await fireEvent.click(await screen.findByTestId('edit-agent'));
    await waitFor(() => expect(screen.getByLabelText(/Persona/)).toHaveValue('as opened'));
    h.gateway.backend.editPersonaOnDisk(agent.agentId, 'edited on disk');
    await fireEvent.input(screen.getByLabelText(/Persona/), { target: { value: 'mine' } });
    await fireEvent.click(screen.getByTestId('agent-save'));
    await fireEvent.click(await screen.findByTestId('persona-take-disk'));
    expect(screen.getByLabelText(/Persona/)).toHaveValue('edited on disk');
    expect(screen.queryByTestId('persona-conflict')).not.toBeInTheDocument();
    await fireEvent.input(screen.getByLabelText(/Persona/), { target: { value: 'edited on disk, and more' } });
    await fireEvent.click(screen.getByTestId('agent-save'));
    await waitFor(() => expect(screen.queryByTestId('agent-form')).not.toBeInTheDocument());
    expect(await h.gateway.agents.persona('/p', agent.agentId)).toBe('edited on disk, and more');
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
  it('takes the keyboard in Name; Escape closes it and gives the keyboard back to +', async () => {
    // Trial finding: opening left the focus on +, and Escape (which closes dialogs) did nothing.
    const h = await panel();
    const plus = screen.getByTestId('new-agent');
    plus.focus();
    await fireEvent.click(plus);
    const name = screen.getByLabelText('Name');
    await waitFor(() => expect(name).toHaveFocus());
    await fireEvent.input(name, { target: { value: 'Draft' } });

    // typed: it asks first; discarded: closed, the keyboard back on +
    await fireEvent.keyDown(name, { key: 'Escape' });
    await fireEvent.click(screen.getByTestId('agent-form-discard'));
    expect(screen.queryByTestId('agent-form')).not.toBeInTheDocument();
    expect(plus).toHaveFocus();
    expect(h.gateway.callsOf('agents.create')).toHaveLength(0);

    // Escape with the keyboard on + (the form open) closes it too.
    await fireEvent.click(plus);
    await waitFor(() => expect(screen.getByLabelText('Name')).toHaveFocus());
    plus.focus();
    await fireEvent.keyDown(plus, { key: 'Escape' });
    expect(screen.queryByTestId('agent-form')).not.toBeInTheDocument();
    expect(plus).toHaveFocus();
  });

  it('an agent’s editor takes the keyboard in Name too, and Escape gives it back to ✎', async () => {
    const h = await panel();
    await h.workspace.activeTab!.createAgent({ name: 'Coder', persona: 'old', profileId: 'shell' });
    const edit = await screen.findByTestId('edit-agent');
    edit.focus();
    await fireEvent.click(edit);
    const name = screen.getByLabelText('Name');
    await waitFor(() => expect(name).toHaveFocus());
    expect(name).toHaveValue('Coder');
    await fireEvent.keyDown(screen.getByLabelText('Profile'), { key: 'Escape' });
    expect(screen.queryByTestId('agent-form')).not.toBeInTheDocument();
    expect(screen.getByTestId('edit-agent')).toHaveFocus();
    expect(h.gateway.callsOf('agents.update')).toHaveLength(0);
  });

  describe('closing with changes asks first', () => {
    // Trial finding: a name and a persona typed, Escape threw them away without a word.
    it('Escape in a typed New agent asks; Escape again keeps editing; Discard closes, nothing created', async () => {
      const h = await panel();
      await fireEvent.click(screen.getByTestId('new-agent'));
      const name = screen.getByLabelText('Name');
      await fireEvent.input(name, { target: { value: 'Reviewer' } });
      await fireEvent.input(screen.getByLabelText(/Persona/), { target: { value: '# Reviews' } });

      await fireEvent.keyDown(screen.getByLabelText(/Persona/), { key: 'Escape' });
      expect(screen.getByTestId('agent-form')).toBeInTheDocument();
      expect(screen.getByTestId('agent-form-confirm-close')).toHaveTextContent('Close without saving?');
      expect(screen.getByTestId('agent-form-confirm-close')).toHaveAttribute('role', 'alert');

      // Escape on the question itself keeps editing, nothing lost
      await fireEvent.keyDown(screen.getByTestId('agent-form-discard'), { key: 'Escape' });
      expect(screen.queryByTestId('agent-form-confirm-close')).not.toBeInTheDocument();
      expect(name).toHaveValue('Reviewer');
      expect(screen.getByLabelText(/Persona/)).toHaveValue('# Reviews');

      // Cancel asks too; Discard changes closes, nothing saved
      await fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
      expect(screen.getByTestId('agent-form')).toBeInTheDocument();
      await fireEvent.click(screen.getByTestId('agent-form-discard'));
      expect(screen.queryByTestId('agent-form')).not.toBeInTheDocument();
      expect(h.gateway.callsOf('agents.create')).toHaveLength(0);
      expect(screen.queryByTestId('agent-item')).not.toBeInTheDocument();
    });

    it('Keep editing gives the keyboard back to the field, and Create still saves what was typed', async () => {
      const h = await panel();
      await fireEvent.click(screen.getByTestId('new-agent'));
      const name = screen.getByLabelText('Name');
      await waitFor(() => expect(name).toHaveFocus());
      await fireEvent.input(name, { target: { value: 'Reviewer' } });
      await fireEvent.keyDown(name, { key: 'Escape' });
      const keep = screen.getByTestId('agent-form-keep-editing');
      keep.focus();
      await fireEvent.click(keep);
      expect(screen.queryByTestId('agent-form-confirm-close')).not.toBeInTheDocument();
      expect(name).toHaveFocus();
      expect(h.gateway.callsOf('agents.create')).toHaveLength(0); // the question's buttons submit nothing
      await fireEvent.click(screen.getByTestId('agent-save'));
      await waitFor(() => expect(screen.queryByTestId('agent-form')).not.toBeInTheDocument());
      expect(h.gateway.callsOf('agents.create')).toHaveLength(1);
    });

    it('an edited persona asks before closing; the persona on disk stays as it was', async () => {
      const h = await panel();
      const agent = await h.workspace.activeTab!.createAgent({ name: 'Coder', persona: 'old', profileId: 'shell' });
      await fireEvent.click(await screen.findByTestId('edit-agent'));
      await waitFor(() => expect(screen.getByLabelText(/Persona/)).toHaveValue('old'));
      await fireEvent.input(screen.getByLabelText(/Persona/), { target: { value: 'new' } });
      await fireEvent.keyDown(screen.getByLabelText(/Persona/), { key: 'Escape' });
      expect(screen.getByTestId('agent-form-confirm-close')).toBeInTheDocument();
      await fireEvent.click(screen.getByTestId('agent-form-discard'));
      expect(screen.queryByTestId('agent-form')).not.toBeInTheDocument();
      expect(h.gateway.callsOf('agents.update')).toHaveLength(0);
      expect(await h.gateway.agents.persona('/p', agent.agentId)).toBe('old');
    });

    it('closes at once when nothing was changed (or the change was undone)', async () => {
      const h = await panel();
      await fireEvent.click(screen.getByTestId('new-agent'));
      await fireEvent.keyDown(screen.getByLabelText('Name'), { key: 'Escape' });
      expect(screen.queryByTestId('agent-form')).not.toBeInTheDocument();

      await fireEvent.click(screen.getByTestId('new-agent'));
      await fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'x' } });
      await fireEvent.input(screen.getByLabelText('Name'), { target: { value: '' } });
      await fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByTestId('agent-form')).not.toBeInTheDocument();
      expect(h.gateway.callsOf('agents.create')).toHaveLength(0);
    });
  });
});
