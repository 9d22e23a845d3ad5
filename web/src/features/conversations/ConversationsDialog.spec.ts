import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { MockConversationSeed } from '../../lib/adapters/mock-backend';
import { FOLD_LINES, localTime } from '../../lib/domain/conversation-view';
import { GatewayError } from '../../lib/ports';
import { agent, harness, openProject, project, settle } from '../../test/harness';

const T0 = Date.UTC(2026, 2, 18, 9, 0, 0);
const LONG = Array.from({ length: FOLD_LINES + 8 }, (_, i) => `log line ${i + 1}`).join('\n') + '\nthe needle is at the end';

/** Beta's two conversations: with the user (older) and with Alpha (more recent). */
const conversations: MockConversationSeed[] = [
  {
    root: '/p',
    id: 'c-user',
    parties: ['user', 'a2'],
    turns: [
      { id: 'u1', source: { kind: 'human' }, role: 'prompt', text: 'Review the diff\nand list the risks', atMs: T0 },
      { id: 'u2', source: { kind: 'agent', agentId: 'a2' }, role: 'response', text: 'Two risks:\n1. the cache\n2. the migration', atMs: T0 + 60_000 },
      { id: 'u3', source: { kind: 'human' }, role: 'prompt', text: 'Fix the CACHE one', atMs: T0 + 120_000 },
    ],
    handoff: '---\nupTo: u3\nobjective: Review\n---\n**Objective:** Review the diff\n\n- **Prompt:** Fix the cache one\n- <img src=x onerror="window.__pwned=1"> <script>window.__pwned=1</script>',
  },
  {
    root: '/p',
    id: 'c-alpha',
    parties: ['a1', 'a2'],
    turns: [
      { id: 'x1', source: { kind: 'agent', agentId: 'a1' }, role: 'prompt', text: 'Run the build', atMs: T0 + 3_600_000 },
      { id: 'x2', source: { kind: 'agent', agentId: 'a2' }, role: 'response', text: LONG, atMs: T0 + 3_660_000 },
    ],
  },
];

async function open(options: { from?: 'card' | 'menu' } = {}) {
  const h = harness({ projects: [project('/p', { agents: [agent('a1', 'Alpha'), agent('a2', 'Beta')] })], conversations });
  await openProject(h);
  const user = userEvent.setup();
  if (options.from === 'menu') {
    await h.workspace.activeTab!.launchAgent('a2', 'n1', 80, 24);
    await screen.findByTestId('terminal');
    await user.click(screen.getByTestId('cell-menu'));
    await user.click(screen.getByTestId('menu-conversations'));
  } else {
    const card = screen.getAllByTestId('agent-item').find((c) => c.dataset.agentId === 'a2')!;
    await user.click(within(card).getByTestId('open-conversations'));
  }
  const dialog = await screen.findByTestId('conversations');
  await waitFor(() => expect(within(dialog).getAllByTestId('turn').length).toBeGreaterThan(0));
  return { h, user, dialog };
}

const items = () => screen.getAllByTestId('conversation-item');
const turns = () => screen.getAllByTestId('turn');

describe('the conversations of an agent', () => {
  it('lists them most recent first, with the other party, the turn count and the last time', async () => {
    const { dialog } = await open();
    expect(dialog).toHaveAccessibleName('Conversations of Beta');
    expect(items().map((i) => i.dataset.conversationId)).toEqual(['c-alpha', 'c-user']);
    expect(items()[0]).toHaveTextContent('Alpha');
    expect(items()[0]).toHaveTextContent(`2 turns · ${localTime(T0 + 3_660_000, false)}`);
    expect(items()[1]).toHaveTextContent('You');
    expect(items()[1]).toHaveTextContent('3 turns');
    expect(items()[0]).toHaveAttribute('aria-current', 'true');
  });

  it('shows the selected one as turns: who, when in local time, the text with its newlines', async () => {
    const { user } = await open();
    await user.click(items()[1]);
    await waitFor(() => expect(turns()).toHaveLength(3));

    expect(turns().map((t) => t.dataset.role)).toEqual(['prompt', 'response', 'prompt']);
    expect(turns().map((t) => within(t).getByTestId('turn-who').textContent)).toEqual(['You', 'Beta', 'You']);
    const time = within(turns()[1]).getByTestId('turn-time');
    expect(time).toHaveTextContent(localTime(T0 + 60_000));
    expect(time).toHaveAttribute('datetime', new Date(T0 + 60_000).toISOString());
    expect(within(turns()[1]).getByTestId('turn-text').textContent).toBe('Two risks:\n1. the cache\n2. the migration');
  });

  it('renders the handoff as text and Markdown-lite, never as HTML', async () => {
    const { user } = await open();
    await user.click(items()[1]);
    const handoff = await screen.findByTestId('handoff');
    expect(within(handoff).getByText('Objective:').tagName).toBe('STRONG');
    expect(handoff).toHaveTextContent('<img src=x onerror="window.__pwned=1"> <script>window.__pwned=1</script>');
    expect(handoff.querySelector('img, script')).toBeNull();
    expect(handoff).not.toHaveTextContent('upTo');
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('filters and highlights the turns containing the search, case-insensitively, and counts them', async () => {
    const { user } = await open();
    await user.click(items()[1]);
    await waitFor(() => expect(turns()).toHaveLength(3));
    const search = screen.getByTestId('conversation-search');

    await user.type(search, 'cache');
    expect(turns().map((t) => t.dataset.turnId)).toEqual(['u2', 'u3']);
    expect(screen.getByTestId('conversation-search-count')).toHaveTextContent('2 of 3 turns match');
    expect(screen.getAllByTestId('search-hit').map((m) => m.textContent)).toEqual(['cache', 'CACHE']);

    await user.clear(search);
    await user.type(search, 'nowhere');
    expect(screen.queryAllByTestId('turn')).toHaveLength(0);
    expect(screen.getByTestId('conversation-search-count')).toHaveTextContent('No turn matches');

    await user.clear(search);
    expect(turns()).toHaveLength(3);
    expect(screen.queryByTestId('conversation-search-count')).not.toBeInTheDocument();
  });

  it('folds a long text until asked, and unfolds it when the search finds it', async () => {
    const { user } = await open();
    const long = turns()[1];
    expect(within(long).getByTestId('turn-text')).not.toHaveTextContent('the needle');
    const toggle = within(long).getByTestId('turn-toggle');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(within(long).getByTestId('turn-text')).toHaveTextContent('the needle is at the end');
    await user.click(within(long).getByTestId('turn-toggle'));
    expect(within(long).getByTestId('turn-text')).not.toHaveTextContent('the needle');

    await user.type(screen.getByTestId('conversation-search'), 'NEEDLE');
    expect(turns()).toHaveLength(1);
    expect(within(turns()[0]).getByTestId('search-hit')).toHaveTextContent('needle');
  });

  it('opens from the ⋯ menu of the agent’s cell too', async () => {
    const { dialog } = await open({ from: 'menu' });
    expect(dialog).toHaveAttribute('data-agent-id', 'a2');
    expect(items()).toHaveLength(2);
  });

  it('is keyboard navigable: ↑/↓ move through the list, Escape closes and gives the focus back', async () => {
    const { user } = await open();
    const opener = screen.getAllByTestId('open-conversations')[1];
    await waitFor(() => expect(items()[0]).toHaveFocus());

    await user.keyboard('{ArrowDown}');
    expect(items()[1]).toHaveFocus();
    await waitFor(() => expect(turns()).toHaveLength(3));
    expect(items()[1]).toHaveAttribute('aria-current', 'true');
    await user.keyboard('{Home}');
    await waitFor(() => expect(turns()).toHaveLength(2));

    await user.tab();
    expect(screen.getByTestId('conversation-search')).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('conversations')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it('keeps Tab inside the dialog', async () => {
    const { user } = await open();
    await waitFor(() => expect(items()[0]).toHaveFocus());
    await user.tab({ shift: true });
    await user.tab({ shift: true });
    await user.tab({ shift: true });
    expect(screen.getByTestId('conversations')).toContainElement(document.activeElement as HTMLElement);
    await fireEvent.click(screen.getByTestId('conversations-close'));
    expect(screen.queryByTestId('conversations')).not.toBeInTheDocument();
  });

  it('says so when the list cannot be read, and retries', async () => {
    const h = harness({ projects: [project('/p', { agents: [agent('a2', 'Beta')] })], conversations });
    h.gateway.failNext('conversations.list', new GatewayError('CORRUPT_FILE', 'log.jsonl: unreadable'));
    await openProject(h);
    await fireEvent.click(screen.getByTestId('open-conversations'));
    expect(await screen.findByTestId('conversations-error')).toHaveTextContent('log.jsonl: unreadable');
    await fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(items()).toHaveLength(2));
  });

  it('shows the turns a delegation logged, after a reload', async () => {
    const h = harness({ projects: [project('/p', { agents: [agent('a1', 'Alpha'), agent('a2', 'Beta')] })] });
    await openProject(h);
    await fireEvent.click(screen.getAllByTestId('open-conversations')[1]);
    expect(await screen.findByTestId('conversations-empty')).toBeInTheDocument();

    await h.workspace.activeTab!.launchAgent('a2', 'n1', 80, 24);
    await settle();
    h.gateway.backend.ask('/p', 'a1', 'a2', 'count the files');
    await settle();
    h.gateway.backend.finishTurn('a2', { state: 'done', reply: '42 files' });
    await fireEvent.click(screen.getByTestId('conversations-refresh'));
    await waitFor(() => expect(turns().map((t) => within(t).getByTestId('turn-text').textContent)).toEqual(['count the files', '42 files']));
    expect(items()[0]).toHaveTextContent('Alpha');
  });
});
