import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { MockGateway } from '../../lib/adapters/mock';
import { GatewayError, type LayoutDoc, type ResumableAgent } from '../../lib/ports';
import { agent, layoutDoc, project as projectDto } from '../../test/harness';
import ResumePanel from './ResumePanel.svelte';
import { ResumeOffer } from './resume.svelte';

const ROOT = '/p';
const project = projectDto(ROOT, {
  agents: [agent('a1', 'Alpha'), agent('a2', 'Beta', 'aider')],
  layouts: layoutDoc({
    type: 'split',
    node: {
      id: 's',
      direction: 'row',
      children: [
        { node: { type: 'leaf', node: { id: 'c1', agent: 'a1', agentWasRunning: true } }, weight: 1 },
        { node: { type: 'leaf', node: { id: 'c2', agent: 'a2', agentWasRunning: true } }, weight: 1 },
      ],
    },
  }),
});
const rows: ResumableAgent[] = [
  { nodeId: 'c1', agentId: 'a1', agentName: 'Alpha', profileId: 'claude-code', profileName: 'Claude Code', conversationId: 'x1', resumeId: 'sess-1', how: 'resume', note: 'resumes its Claude Code session sess-1' },
  { nodeId: 'c2', agentId: 'a2', agentName: 'Beta', profileId: 'aider', profileName: 'Aider', conversationId: 'x2', resumeId: null, how: 'fresh', note: 'Aider cannot resume a session: it starts a new one with the handoff injected' },
];

function setup() {
  const gateway = new MockGateway({ projects: [project], resumable: { [ROOT]: rows }, installed: ['sh', 'claude', 'aider'] });
  const applied: LayoutDoc[] = [];
  const offer = new ResumeOffer(gateway, ROOT, (doc) => applied.push(doc));
  return { gateway, offer, applied };
}

describe('ResumePanel', () => {
  it('lists each agent with what will happen, and resumes one in its own cell', async () => {
    const { gateway, offer, applied } = setup();
    await offer.load();
    render(ResumePanel, { props: { offer } });
    const items = screen.getAllByTestId('resume-row');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Alpha');
    expect(items[0]).toHaveTextContent('resumes its Claude Code session sess-1');
    expect(within(items[1]).getByTestId('resume-resume')).toHaveTextContent('Relaunch');
    expect(items[1]).toHaveTextContent('handoff injected');

    await fireEvent.click(within(items[0]).getByTestId('resume-resume'));
    await waitFor(() => expect(screen.getAllByTestId('resume-row')[0]).toHaveAttribute('data-state', 'resumed'));
    expect(gateway.callsOf('resume.answer')[0]).toEqual([ROOT, 'c1', 'resume', 120, 32]);
    expect(applied).toHaveLength(1);
  });

  it('a failed row stops saying so once the agent runs, launched another way', async () => {
    const { gateway, offer } = setup();
    await offer.load();
    render(ResumePanel, { props: { offer } });
    gateway.failNext('resume.answer', new GatewayError('CORRUPT_FILE', 'permissions.json: invalid JSON — not launched'));
    await fireEvent.click(within(screen.getAllByTestId('resume-row')[0]).getByTestId('resume-resume'));
    await waitFor(() => expect(screen.getAllByTestId('resume-row')[0]).toHaveAttribute('data-state', 'failed'));
    expect(screen.getAllByTestId('resume-note')[0]).toHaveTextContent('not launched');
    offer.agentRunning('a1'); // the user fixed the file and relaunched it from its cell
    await waitFor(() => expect(screen.getAllByTestId('resume-note')[0]).toHaveTextContent('running now'));
    expect(screen.getAllByTestId('resume-row')[0]).toHaveAttribute('data-state', 'fresh');
  });

  it('Resume all answers every pending row in order', async () => {
    const first = setup();
    await first.offer.load();
    render(ResumePanel, { props: { offer: first.offer } });
    await fireEvent.click(screen.getByTestId('resume-all'));
    await waitFor(() => expect(first.gateway.callsOf('resume.answer')).toHaveLength(2));
    expect(first.gateway.callsOf('resume.answer').map((c) => [c[1], c[2]])).toEqual([['c1', 'resume'], ['c2', 'resume']]);
    await waitFor(() => expect(screen.getAllByTestId('resume-row')[1]).toHaveAttribute('data-state', 'fresh'));
    // Nothing left to answer: no disabled bulk buttons, the outcomes stay until closed.
    expect(screen.queryByTestId('resume-all')).toBeNull();
    expect(screen.getByTestId('resume-done')).toHaveTextContent('All answered');
    await fireEvent.click(screen.getByTestId('resume-close'));
    expect(screen.queryByTestId('resume-panel')).toBeNull();
  });

  it('Ignore all forgets them and the panel closes', async () => {
    const { gateway, offer } = setup();
    await offer.load();
    const { container } = render(ResumePanel, { props: { offer } });
    await fireEvent.click(screen.getByTestId('ignore-all'));
    await waitFor(() => expect(gateway.callsOf('resume.answer').map((c) => c[2])).toEqual(['ignore', 'ignore']));
    await waitFor(() => expect(container.querySelector('[data-testid="resume-panel"]')).toBeNull());
  });

  it('stays closed when nothing is resumable', async () => {
    const gateway = new MockGateway({ projects: [project] });
    const offer = new ResumeOffer(gateway, ROOT, () => undefined);
    await offer.load();
    render(ResumePanel, { props: { offer } });
    expect(screen.queryByTestId('resume-panel')).not.toBeInTheDocument();
  });

  it('folds to its header line (how many are left to answer) and unfolds', async () => {
    const { offer } = setup();
    await offer.load();
    render(ResumePanel, { props: { offer } });
    const fold = screen.getByTestId('resume-fold');
    expect(fold).toHaveAttribute('aria-expanded', 'true');
    await fireEvent.click(fold);
    expect(fold).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByTestId('resume-panel')).toHaveAttribute('data-folded', 'true');
    expect(screen.getByTestId('resume-count')).toHaveTextContent('2 to answer');
    expect(screen.getAllByTestId('resume-row')[0]).not.toBeVisible();
    // Its buttons stay: answering every row is still one click away.
    expect(screen.getByTestId('resume-all')).toBeVisible();
    await fireEvent.click(fold);
    expect(screen.getAllByTestId('resume-row')[0]).toBeVisible();
    expect(screen.queryByTestId('resume-count')).not.toBeInTheDocument();
  });
});
