import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../lib/ports';
import { harness } from '../../test/harness';
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
