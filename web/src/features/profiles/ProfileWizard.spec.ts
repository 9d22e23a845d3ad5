import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../lib/ports';
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

  it('saves the ticked profiles and reports them', async () => {
    const h = harness({ installed: ['sh', 'claude'] });
    const onDone = vi.fn<(saved: Profile[]) => void>();
    render(ProfileWizard, { props: { onDone }, context: h.context });

    await fireEvent.click(await screen.findByRole('checkbox', { name: /Codex CLI/ }));
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(h.gateway.calls.map((c) => c.method)).toContain('profiles.save'));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    const [saved] = h.gateway.callsOf('profiles.save')[0] as [Profile[]];
    expect(saved.map((p) => p.id)).toEqual(['claude-code', 'codex-cli', 'shell']);
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
    const h = harness({ installed: ['sh', 'claude'], profiles: [{ ...aider, args: ['--model', 'x'] }, shell, custom] });
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
    expect(screen.getByTestId('detect-aider')).toHaveTextContent('not found');
    expect(screen.getByTestId('detect-my-llm')).toHaveTextContent('configured');
  });

  it('saves the new choice with the saved settings kept, and updates the workspace', async () => {
    const h = harness({ installed: ['sh', 'claude'], profiles: [{ ...aider, args: ['--model', 'x'] }, shell, custom] });
    const wizard = await openProfiles(h);

    await fireEvent.click(within(wizard).getByRole('checkbox', { name: /Claude Code/ }));
    await fireEvent.click(within(wizard).getByRole('checkbox', { name: /Shell/ }));
    await fireEvent.click(within(wizard).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByTestId('wizard')).not.toBeInTheDocument());
    const [saved] = h.gateway.callsOf('profiles.save')[0] as [Profile[]];
    expect(saved.map((p) => p.id)).toEqual(['claude-code', 'aider', 'my-llm']);
    expect(saved.find((p) => p.id === 'aider')?.args).toEqual(['--model', 'x']);
    expect(h.workspace.profiles.map((p) => p.id)).toEqual(['claude-code', 'aider', 'my-llm']);
  });

  it('keeps Save disabled with nothing ticked, and Cancel closes without saving', async () => {
    const h = harness({ profiles: [shell] });
    const wizard = await openProfiles(h);

    await fireEvent.click(within(wizard).getByRole('checkbox', { name: /Shell/ }));
    expect(within(wizard).getByRole('button', { name: 'Save' })).toBeDisabled();
    await fireEvent.click(within(wizard).getByTestId('wizard-cancel'));

    expect(screen.queryByTestId('wizard')).not.toBeInTheDocument();
    expect(h.gateway.callsOf('profiles.save')).toHaveLength(0);
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
