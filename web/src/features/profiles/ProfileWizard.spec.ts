import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import { GatewayError, type Profile } from '../../lib/ports';
import { harness } from '../../test/harness';
import App from '../../App.svelte';
import { BUILTIN_PROFILES } from '../../lib/adapters/mock';
import ProfileWizard from './ProfileWizard.svelte';

describe('ProfileWizard', () => {
  it('lists the four CLIs and Shell with their detection state, preselecting installed ones', async () => {
    const h = harness({ installed: ['sh', 'claude'] });
    render(ProfileWizard, { props: { onDone: vi.fn() }, context: h.context });

    await screen.findByText('Claude Code');
    expect(screen.getByTestId('wizard')).toBeInTheDocument();
    expect(screen.getByTestId('detect-claude-code')).toHaveTextContent('installed');
    expect(screen.getByTestId('detect-claude-code')).toHaveTextContent('claude 1.0.0');
    expect(screen.getByTestId('detect-codex-cli')).toHaveTextContent('not found');
    expect(screen.getByTestId('detect-gemini-cli')).toHaveTextContent('not found');
    expect(screen.getByTestId('detect-aider')).toHaveTextContent('not found');
    expect(screen.getByRole('checkbox', { name: /Claude Code/ })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: /Shell/ })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: /Codex CLI/ })).not.toBeChecked();
  });

  it('tells how to install a missing built-in CLI, and nothing for an installed one', async () => {
    const h = harness({ installed: ['sh', 'claude'] });
    render(ProfileWizard, { props: { onDone: vi.fn() }, context: h.context });

    expect(await screen.findByTestId('install-codex-cli')).toHaveTextContent('npm install -g @openai/codex');
    expect(screen.getByTestId('install-gemini-cli')).toHaveTextContent('npm install -g @google/gemini-cli');
    expect(screen.queryByTestId('install-claude-code')).not.toBeInTheDocument();
    expect(screen.queryByTestId('install-shell')).not.toBeInTheDocument();
  });

  it('saves the ticked profiles and reports them', async () => {
    const h = harness({ installed: ['sh', 'claude', 'codex'] });
    const onDone = vi.fn<(saved: Profile[]) => void>();
    render(ProfileWizard, { props: { onDone }, context: h.context });

    expect(await screen.findByRole('checkbox', { name: /Codex CLI/ })).toBeChecked();
    await fireEvent.click(screen.getByRole('checkbox', { name: /Claude Code/ }));
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(h.gateway.calls.map((c) => c.method)).toContain('profiles.save'));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    const [saved] = h.gateway.callsOf('profiles.save')[0] as [Profile[]];
    expect(saved.map((p) => p.id)).toEqual(['codex-cli', 'shell']);
  });

  it('still offers Shell when detection fails', async () => {
    const h = harness();
    h.gateway.failNext('profiles.detect', new (await import('../../lib/ports')).GatewayError('INTERNAL', 'boom'));
    render(ProfileWizard, { props: { onDone: vi.fn() }, context: h.context });
    expect(await screen.findByRole('checkbox', { name: /Shell/ })).toBeChecked();
    expect(screen.getByRole('alert')).toHaveTextContent('Detection failed: boom');
  });
});

describe('Profiles… (the wizard after the first run)', () => {
  const aider = BUILTIN_PROFILES.find((p) => p.id === 'aider')!;
  const shell = BUILTIN_PROFILES.find((p) => p.id === 'shell')!;
  const custom: Profile = { id: 'my-llm', name: 'My LLM', command: 'myllm', args: ['--fast'], contextInjection: { strategy: 'env', var: 'CTX' } };

  async function openProfiles(h: ReturnType<typeof harness>) {
    render(App, { props: { services: h }, context: h.context });
    await h.workspace.start();
    await fireEvent.click(screen.getByTestId('open-profiles'));
    const wizard = await screen.findByTestId('wizard');
    await within(wizard).findByRole('checkbox', { name: /Shell/ });
    return wizard;
  }

  it('ticks the saved profiles (not the detected ones) and shows the detection results', async () => {
    const h = harness({ installed: ['sh', 'claude', 'aider', 'myllm'], profiles: [{ ...aider, args: ['--model', 'x'] }, shell, custom] });
    const wizard = await openProfiles(h);

    expect(wizard).toHaveAttribute('data-mode', 'manage');
    expect(within(wizard).getByRole('heading')).toHaveTextContent('Profiles');
    expect(h.gateway.callsOf('profiles.list').length).toBeGreaterThanOrEqual(2);
    expect(h.gateway.callsOf('profiles.detect')).toHaveLength(1);
    expect(within(wizard).getByRole('checkbox', { name: /Aider/ })).toBeChecked();
    expect(within(wizard).getByRole('checkbox', { name: /Shell/ })).toBeChecked();
    expect(within(wizard).getByRole('checkbox', { name: /My LLM/ })).toBeChecked();
    expect(within(wizard).getByRole('checkbox', { name: /Claude Code/ })).not.toBeChecked();
    expect(screen.getByTestId('detect-claude-code')).toHaveTextContent('installed');
    expect(screen.getByTestId('detect-aider')).toHaveTextContent('installed');
    expect(screen.getByTestId('detect-codex-cli')).toHaveTextContent('not found');
    expect(within(wizard).getByRole('checkbox', { name: /Codex CLI/ })).toBeDisabled();
    expect(screen.getByTestId('detect-my-llm')).toHaveTextContent('installed');
  });

  it('saves the new choice with the saved settings kept, and updates the workspace', async () => {
    const h = harness({ installed: ['sh', 'claude', 'aider', 'myllm'], profiles: [{ ...aider, args: ['--model', 'x'] }, shell, custom] });
    const wizard = await openProfiles(h);

    await fireEvent.click(within(wizard).getByRole('checkbox', { name: /Claude Code/ }));
    await fireEvent.click(within(wizard).getByRole('checkbox', { name: /Shell/ }));
    await fireEvent.click(within(wizard).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByTestId('wizard')).not.toBeInTheDocument());
    const [saved] = h.gateway.callsOf('profiles.save')[0] as [Profile[]];
    // the unticked Shell is sent unticked; the backend leaves it out, the catalogue's as is
    expect(saved.map((p) => [p.id, p.enabled ?? true])).toEqual([['claude-code', true], ['aider', true], ['shell', false], ['my-llm', true]]);
    expect(saved.find((p) => p.id === 'aider')?.args).toEqual(['--model', 'x']);
    expect(h.workspace.profiles.map((p) => p.id)).toEqual(['claude-code', 'aider', 'my-llm']);
  });

  it('keeps a saved profile the user unticks, unticked, with its settings', async () => {
    // Trial finding: an unticked custom CLI, or a built-in saved unticked with a path set, was
    // dropped from profiles.json by the next Save, and the agents using it failed to launch.
    const claude = BUILTIN_PROFILES.find((p) => p.id === 'claude-code')!;
    const moved = { ...claude, command: '/opt/claude', enabled: false };
    const h = harness({ installed: ['sh', 'myllm', '/opt/claude'], profiles: [shell, custom, moved] });
    const wizard = await openProfiles(h);
    expect(within(wizard).getByRole('checkbox', { name: /Claude Code/ })).not.toBeChecked();
    await fireEvent.click(within(wizard).getByRole('checkbox', { name: /My LLM/ }));
    await fireEvent.click(within(wizard).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByTestId('wizard')).not.toBeInTheDocument());
    const stored = await h.gateway.profiles.list();
    expect(stored.map((p) => [p.id, p.enabled ?? true, p.command])).toEqual([
      ['claude-code', false, '/opt/claude'], ['shell', true, shell.command], ['my-llm', false, 'myllm']]);
  });

  it('keeps Save disabled with nothing ticked, and Cancel closes without saving (asking first)', async () => {
    const h = harness({ profiles: [shell] });
    const wizard = await openProfiles(h);

    await fireEvent.click(within(wizard).getByRole('checkbox', { name: /Shell/ }));
    expect(within(wizard).getByRole('button', { name: 'Save' })).toBeDisabled();
    await fireEvent.click(within(wizard).getByTestId('wizard-cancel'));
    expect(within(wizard).getByTestId('wizard-confirm-close')).toHaveTextContent('Close without saving?');
    await fireEvent.click(within(wizard).getByTestId('wizard-discard'));

    expect(screen.queryByTestId('wizard')).not.toBeInTheDocument();
    expect(h.gateway.callsOf('profiles.save')).toHaveLength(0);
  });

  describe('closing with changes asks first', () => {
    // Trial finding: Edit Shell, `MYVAR=1` typed in Environment, Escape: closed, nothing saved, no word.
    async function typedInShell(h: ReturnType<typeof harness>) {
      const wizard = await openProfiles(h);
      await fireEvent.click(within(wizard).getByTestId('edit-shell'));
      const env = within(wizard).getByTestId('pe-env');
      await fireEvent.input(env, { target: { value: 'MYVAR=1' } });
      return { wizard, env };
    }

    it('Escape in the field asks; Escape on the question keeps editing; Discard closes, nothing saved', async () => {
      const h = harness({ profiles: [shell] });
      const { wizard, env } = await typedInShell(h);

      await fireEvent.keyDown(env, { key: 'Escape' });
      expect(screen.getByTestId('wizard')).toBeInTheDocument();
      const question = within(wizard).getByTestId('wizard-confirm-close');
      expect(question).toHaveTextContent('Close without saving?');
      expect(question).toHaveAttribute('role', 'alert');

      await fireEvent.keyDown(within(wizard).getByTestId('wizard-discard'), { key: 'Escape' });
      expect(screen.getByTestId('wizard')).toBeInTheDocument();
      expect(within(wizard).queryByTestId('wizard-confirm-close')).not.toBeInTheDocument();
      expect(env).toHaveValue('MYVAR=1');

      await fireEvent.keyDown(env, { key: 'Escape' });
      await fireEvent.click(within(wizard).getByTestId('wizard-discard'));
      expect(screen.queryByTestId('wizard')).not.toBeInTheDocument();
      expect(h.gateway.callsOf('profiles.save')).toHaveLength(0);
      expect((await h.gateway.profiles.list()).find((p) => p.id === 'shell')?.env).toBeUndefined();
    });

    it('Escape after leaving the field asks too; Keep editing keeps it, and Save stores it', async () => {
      const h = harness({ profiles: [shell] });
      const { wizard, env } = await typedInShell(h);
      const dialog = screen.getByTestId('wizard-dialog');
      dialog.focus();
      await fireEvent.keyDown(dialog, { key: 'Escape' });
      expect(screen.getByTestId('wizard')).toBeInTheDocument();
      await fireEvent.click(within(wizard).getByTestId('wizard-keep-editing'));
      expect(within(wizard).queryByTestId('wizard-confirm-close')).not.toBeInTheDocument();
      expect(h.gateway.callsOf('profiles.save')).toHaveLength(0); // the question's buttons submit nothing
      expect(env).toHaveValue('MYVAR=1');

      await fireEvent.click(within(wizard).getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(screen.queryByTestId('wizard')).not.toBeInTheDocument());
      const [saved] = h.gateway.callsOf('profiles.save')[0] as [Profile[]];
      expect(saved.find((p) => p.id === 'shell')?.env).toEqual({ MYVAR: '1' });
    });

    it('asks for a line the profile cannot hold yet (no `=`) and for an added profile', async () => {
      const h = harness({ profiles: [shell] });
      const wizard = await openProfiles(h);
      await fireEvent.click(within(wizard).getByTestId('edit-shell'));
      await fireEvent.input(within(wizard).getByTestId('pe-env'), { target: { value: 'MYVAR' } });
      await fireEvent.click(within(wizard).getByTestId('wizard-cancel'));
      expect(within(wizard).getByTestId('wizard-confirm-close')).toBeInTheDocument();
      await fireEvent.click(within(wizard).getByTestId('wizard-keep-editing'));
      await fireEvent.input(within(wizard).getByTestId('pe-env'), { target: { value: '' } });
      await fireEvent.change(within(wizard).getByTestId('add-profile'), { target: { value: 'acp-agent' } });
      await fireEvent.click(within(wizard).getByTestId('wizard-cancel'));
      expect(within(wizard).getByTestId('wizard-confirm-close')).toBeInTheDocument();
    });

    it('closes at once on Escape when nothing changed (an editor opened, a change undone)', async () => {
      const h = harness({ profiles: [shell] });
      await openProfiles(h);
      await fireEvent.keyDown(screen.getByTestId('wizard-dialog'), { key: 'Escape' });
      expect(screen.queryByTestId('wizard')).not.toBeInTheDocument();

      await fireEvent.click(screen.getByTestId('open-profiles'));
      const wizard = await screen.findByTestId('wizard');
      await within(wizard).findByRole('checkbox', { name: /Shell/ });
      await fireEvent.click(within(wizard).getByTestId('edit-shell'));
      const env = within(wizard).getByTestId('pe-env');
      await fireEvent.input(env, { target: { value: 'MYVAR=1' } });
      await fireEvent.input(env, { target: { value: '' } });
      await fireEvent.click(within(wizard).getByRole('checkbox', { name: /Shell/ }));
      await fireEvent.click(within(wizard).getByRole('checkbox', { name: /Shell/ }));
      await fireEvent.keyDown(env, { key: 'Escape' });
      expect(screen.queryByTestId('wizard')).not.toBeInTheDocument();
      expect(h.gateway.callsOf('profiles.save')).toHaveLength(0);
    });
  });

  it('says every listed profile is kept, unticked ones too', async () => {
    // Trial finding: "Ticked ones are saved", yet an unticked added profile with a problem blocked Save.
    const h = harness({ profiles: [shell] });
    const wizard = await openProfiles(h);
    expect(within(wizard).getByTestId('wizard-lead')).toHaveTextContent('Every profile listed is kept, unticked ones too');
    expect(within(wizard).getByTestId('wizard-lead')).not.toHaveTextContent('Ticked ones are saved');
  });

  it('asks before removing a saved custom profile; Keep keeps it, Remove drops it on Save', async () => {
    const h = harness({ installed: ['sh', 'myllm'], profiles: [shell, custom] });
    const wizard = await openProfiles(h);
    await fireEvent.click(within(wizard).getByTestId('remove-my-llm'));
    expect(within(wizard).getByTestId('confirm-remove-my-llm')).toHaveTextContent('Remove My LLM? Agents using it cannot start');
    await fireEvent.click(within(wizard).getByTestId('confirm-remove-no-my-llm'));
    expect(within(wizard).getByTestId('profile-row-my-llm')).toBeInTheDocument();
    expect(within(wizard).queryByTestId('confirm-remove-my-llm')).not.toBeInTheDocument();
    await fireEvent.click(within(wizard).getByTestId('remove-my-llm'));
    await fireEvent.click(within(wizard).getByTestId('confirm-remove-yes-my-llm'));
    expect(within(wizard).queryByTestId('profile-row-my-llm')).not.toBeInTheDocument();
    expect(h.gateway.callsOf('profiles.save')).toHaveLength(0); // deleted on Save only
    await fireEvent.click(within(wizard).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByTestId('wizard')).not.toBeInTheDocument());
    expect((await h.gateway.profiles.list()).map((p) => p.id)).toEqual(['shell']);
  });

  it('offers no Cancel on the first run', async () => {
    const h = harness({ firstRun: true });
    render(App, { props: { services: h }, context: h.context });
    await h.workspace.start();
    const wizard = await screen.findByTestId('wizard');
    expect(wizard).toHaveAttribute('data-mode', 'first-run');
    expect(within(wizard).queryByTestId('wizard-cancel')).not.toBeInTheDocument();
  });
});

describe('Profile editor', () => {
  async function open(h: ReturnType<typeof harness>) {
    render(ProfileWizard, { props: { onDone: vi.fn() }, context: h.context });
    return within(await screen.findByTestId('wizard'));
  }

  it('shows a missing command as such, not tickable until a path is given and found by Test', async () => {
    const h = harness({ installed: ['sh', 'claude', '/opt/codex/bin/codex'] });
    const w = await open(h);
    const codex = await w.findByRole('checkbox', { name: /Codex CLI/ });
    expect(codex).toBeDisabled();
    expect(w.getByTestId('edit-codex-cli')).toHaveTextContent('Set path…');

    await fireEvent.click(w.getByTestId('edit-codex-cli'));
    await fireEvent.click(w.getByTestId('pe-test'));
    expect(await w.findByTestId('pe-test-state')).toHaveTextContent('not found');
    expect(w.getByTestId('pe-test-output')).toHaveTextContent('codex: not found on the PATH');

    await fireEvent.input(w.getByTestId('pe-command'), { target: { value: '/opt/codex/bin/codex' } });
    expect(w.queryByTestId('pe-test-state')).not.toBeInTheDocument();
    // A trial saw the row say "configured" for a path nobody had tried.
    expect(w.getByTestId('detect-codex-cli')).toHaveTextContent('not tested');
    expect(w.getByTestId('install-codex-cli')).toBeInTheDocument(); // until Test finds it
    await fireEvent.click(w.getByTestId('pe-test'));
    expect(await w.findByTestId('pe-test-state')).toHaveTextContent('found');
    expect(w.getByTestId('detect-codex-cli')).toHaveTextContent('installed');
    expect(w.queryByTestId('install-codex-cli')).not.toBeInTheDocument();
    expect(w.getByTestId('pe-test-state')).toHaveTextContent('/opt/codex/bin/codex');
    expect(w.getByTestId('pe-test-output')).toHaveTextContent('/opt/codex/bin/codex 1.0.0');
    expect(h.gateway.callsOf('profiles.test').at(-1)?.[0]).toMatchObject({ id: 'codex-cli', command: '/opt/codex/bin/codex' });

    const ticked = w.getByRole('checkbox', { name: /Codex CLI/ });
    expect(ticked).toBeEnabled();
    await fireEvent.click(ticked);
    await fireEvent.click(w.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(h.gateway.callsOf('profiles.save')).toHaveLength(1));
    const [saved] = h.gateway.callsOf('profiles.save')[0] as [Profile[]];
    expect(saved.find((p) => p.id === 'codex-cli')).toMatchObject({ command: '/opt/codex/bin/codex' });
  });

  it('edits every field into the saved profile', async () => {
    const h = harness({ installed: ['sh', 'claude'] });
    const w = await open(h);
    await fireEvent.click(await w.findByTestId('edit-claude-code'));
    const set = (id: string, value: string) => fireEvent.input(w.getByTestId(id), { target: { value } });
    await set('pe-name', 'Claude (fast)');
    await set('pe-args', '--model\nhaiku');
    await set('pe-env', 'MY_VAR=1\nOTHER={projectRoot}/x');
    await set('pe-target', 'CLAUDE.md');
    await set('pe-prompt-ready', '> $');
    await set('pe-submit', '\\q\\z');
    expect(w.getByTestId('pe-submit-note')).toHaveTextContent('\\q \\z: not a key');
    await set('pe-submit', '\\r\\n');
    expect(w.queryByTestId('pe-submit-note')).not.toBeInTheDocument();
    await set('pe-access', '--add-dir\n{projectRoot}');
    await set('pe-resume-flag', '--resume');
    await fireEvent.change(w.getByTestId('pe-structured'), { target: { value: 'acp' } });
    await set('pe-structured-args', '--acp');
    await fireEvent.click(w.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(h.gateway.callsOf('profiles.save')).toHaveLength(1));
    const [saved] = h.gateway.callsOf('profiles.save')[0] as [Profile[]];
    expect(saved.find((p) => p.id === 'claude-code')).toMatchObject({
      name: 'Claude (fast)',
      args: ['--model', 'haiku'],
      env: { MY_VAR: '1', OTHER: '{projectRoot}/x' },
      promptReadyPattern: '> $',
      submitSequence: '\r\n',
      projectAccess: { args: ['--add-dir', '{projectRoot}'] },
      session: { resumeFlag: '--resume' },
      structured: { protocol: 'acp', args: ['--acp'] },
    });
  });

  it('refuses to save an environment line without = (it would be lost), and saves once fixed', async () => {
    // Trial finding: `GOOD=1` and a line without `=` saved as {GOOD: "1"}, the line silently lost.
    const h = harness({ installed: ['sh', 'claude'] });
    const w = await open(h);
    await fireEvent.click(await w.findByTestId('edit-claude-code'));
    await fireEvent.input(w.getByTestId('pe-env'), { target: { value: 'GOOD=1\nDEBUG' } });
    expect(w.getByTestId('pe-env-error')).toHaveTextContent('line 2 is not KEY=value');
    await fireEvent.click(w.getByRole('button', { name: 'Save' }));
    expect(await w.findByText(/Could not save profiles: Claude Code: Environment: line 2/)).toBeInTheDocument();
    expect(h.gateway.callsOf('profiles.save')).toHaveLength(0);
    expect(w.getByTestId('pe-env')).toHaveValue('GOOD=1\nDEBUG'); // nothing of the input lost
    await fireEvent.input(w.getByTestId('pe-env'), { target: { value: 'GOOD=1\nDEBUG=' } });
    await fireEvent.click(w.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(h.gateway.callsOf('profiles.save')).toHaveLength(1));
    const [saved] = h.gateway.callsOf('profiles.save')[0] as [Profile[]];
    expect(saved.find((p) => p.id === 'claude-code')?.env).toEqual({ GOOD: '1', DEBUG: '' });
  });

  it('duplicates a built-in and adds an ACP agent from its template, both saved unticked', async () => {
    const h = harness({ installed: ['sh', 'claude'] });
    const w = await open(h);
    await fireEvent.click(await w.findByTestId('duplicate-claude-code'));
    expect(w.getByTestId('profile-editor')).toHaveAttribute('data-profile', 'claude-code-copy');
    expect(w.getByRole('checkbox', { name: /Claude Code \(copy\)/ })).not.toBeChecked();
    await fireEvent.change(w.getByTestId('add-profile'), { target: { value: 'acp-agent' } });
    expect(w.getByTestId('profile-editor')).toHaveAttribute('data-profile', 'acp-agent');
    expect(w.getByTestId('pe-structured')).toHaveValue('acp');
    await fireEvent.click(w.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(h.gateway.callsOf('profiles.save')).toHaveLength(1));
    const [saved] = h.gateway.callsOf('profiles.save')[0] as [Profile[]];
    expect(saved.find((p) => p.id === 'claude-code-copy')).toMatchObject({ name: 'Claude Code (copy)', command: 'claude', enabled: false });
    expect(saved.find((p) => p.id === 'acp-agent')).toMatchObject({ structured: { protocol: 'acp', args: ['acp'] }, enabled: false });
  });

  it('names a second profile from the same template apart', async () => {
    const h = harness({ installed: ['sh', 'claude'] });
    const w = await open(h);
    await w.findByRole('checkbox', { name: /Shell/ });
    for (let i = 0; i < 2; i++) await fireEvent.change(w.getByTestId('add-profile'), { target: { value: 'acp-agent' } });
    const added = [...w.getAllByRole('checkbox')].map((box) => box.getAttribute('name')).filter((n) => n?.startsWith('acp-agent'));
    expect(added).toHaveLength(2);
    const names = added.map((id) => w.getByTestId(`profile-row-${id}`).querySelector('.name')?.textContent);
    expect(names[1]).toBe(`${names[0]} 2`);
  });

  it('opens the profile a refused save names, with the message next to its field', async () => {
    const h = harness({ installed: ['sh', 'claude'] });
    const w = await open(h);
    h.gateway.failNext(
      'profiles.save',
      new GatewayError('INVALID', 'Claude Code: Environment: PATH is set by IdeA at launch', { field: 'profiles[0].env.PATH', label: 'Environment' }),
    );
    await w.findByRole('checkbox', { name: /Shell/ });
    await fireEvent.click(w.getByRole('button', { name: 'Save' }));
    expect(await w.findByTestId('profile-editor')).toHaveAttribute('data-profile', 'claude-code');
    expect(within(w.getByTestId('profile-editor')).getByRole('alert')).toHaveTextContent('PATH is set by IdeA');
    expect(w.getByTestId('pe-env')).toHaveFocus(); // the field at fault, focused
    // named as the user knows it, not by its index in the list sent nor its path in the profile
    expect(w.getByText(/^Could not save profiles:/)).toHaveTextContent('Could not save profiles: Claude Code: Environment: PATH is set by IdeA');
  });

  describe('trial findings: Test and Save agree, Remove, the Name error', () => {
    it('Test of a Custom CLI without a command reports what Save refuses', async () => {
      // Trial finding: Test said "found · /bin/bash", Save refused "an empty command runs your shell".
      const h = harness({ installed: ['sh', 'claude'] });
      const w = await open(h);
      await w.findByRole('checkbox', { name: /Shell/ });
      await fireEvent.change(w.getByTestId('add-profile'), { target: { value: 'custom' } });
      await fireEvent.click(w.getByTestId('pe-test'));
      expect(await w.findByTestId('pe-test-state')).toHaveTextContent('failed');
      expect(w.getByTestId('pe-test-state')).not.toHaveTextContent('found');
      expect(w.getByTestId('pe-test-output')).toHaveTextContent('an empty command runs your shell, which is never detected');
      expect(w.getByTestId('detect-custom')).toHaveTextContent('needs a command');
      await fireEvent.click(w.getByRole('button', { name: 'Save' }));
      expect(await w.findByText(/Could not save profiles: Custom CLI: Command: name the CLI's command/)).toBeInTheDocument();
    });

    it('a Shell whose command Test does not find says so, unticked with a word, not "always available"', async () => {
      const h = harness({ installed: ['sh', 'claude'] });
      const w = await open(h);
      const box = await w.findByRole('checkbox', { name: /Shell/ });
      expect(box).toBeChecked();
      expect(w.getByTestId('detect-shell')).toHaveTextContent('always available');
      await fireEvent.click(w.getByTestId('edit-shell'));
      await fireEvent.input(w.getByTestId('pe-command'), { target: { value: '/no/such/shell' } });
      expect(w.getByTestId('detect-shell')).toHaveTextContent('not tested');
      await fireEvent.click(w.getByTestId('pe-test'));
      expect(await w.findByTestId('pe-test-state')).toHaveTextContent('not found');
      expect(w.getByTestId('detect-shell')).toHaveTextContent('not found');
      expect(w.getByTestId('detect-shell')).not.toHaveTextContent('always available');
      expect(w.getByRole('checkbox', { name: /Shell/ })).not.toBeChecked();
      expect(w.getByRole('checkbox', { name: /Shell/ })).toBeDisabled();
      expect(w.getByTestId('unticked-shell')).toHaveTextContent('Unticked: Test did not find /no/such/shell');
      await fireEvent.input(w.getByTestId('pe-command'), { target: { value: 'sh' } });
      expect(w.queryByTestId('unticked-shell')).not.toBeInTheDocument();
      await fireEvent.click(w.getByTestId('pe-test'));
      await waitFor(() => expect(w.getByTestId('detect-shell')).toHaveTextContent('always available'));
      expect(w.getByRole('checkbox', { name: /Shell/ })).toBeEnabled();
    });

    it('removes a profile added in this dialog at once; built-ins have no Remove', async () => {
      const h = harness({ installed: ['sh', 'claude'] });
      const w = await open(h);
      await w.findByRole('checkbox', { name: /Shell/ });
      expect(w.queryByTestId('remove-claude-code')).not.toBeInTheDocument();
      expect(w.queryByTestId('remove-shell')).not.toBeInTheDocument();
      await fireEvent.change(w.getByTestId('add-profile'), { target: { value: 'custom' } });
      await fireEvent.click(w.getByTestId('duplicate-claude-code'));
      await fireEvent.click(w.getByTestId('remove-custom'));
      expect(w.queryByTestId('profile-row-custom')).not.toBeInTheDocument();
      expect(w.queryByTestId('confirm-remove-custom')).not.toBeInTheDocument();
      await fireEvent.click(w.getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(h.gateway.callsOf('profiles.save')).toHaveLength(1));
      const [saved] = h.gateway.callsOf('profiles.save')[0] as [Profile[]];
      expect(saved.map((p) => p.id)).toEqual(['claude-code', 'shell', 'claude-code-copy']);
    });

    it('names an empty Name next to Name, not at the bottom of the form', async () => {
      const h = harness({ installed: ['sh', 'claude'] });
      const w = await open(h);
      await fireEvent.click(await w.findByTestId('edit-claude-code'));
      await fireEvent.input(w.getByTestId('pe-name'), { target: { value: '' } });
      h.gateway.failNext('profiles.save', new GatewayError('INVALID', 'claude-code: Name: give the profile a name', { field: 'profiles[0].name', label: 'Name' }));
      await fireEvent.click(w.getByRole('button', { name: 'Save' }));
      const error = await w.findByTestId('pe-name-error');
      expect(error).toHaveTextContent('give the profile a name');
      expect(error.parentElement).toContainElement(w.getByTestId('pe-name'));
      expect(within(w.getByTestId('profile-editor')).getAllByRole('alert')).toHaveLength(1);
      expect(w.getByTestId('pe-name')).toHaveFocus();
    });
  });
});
