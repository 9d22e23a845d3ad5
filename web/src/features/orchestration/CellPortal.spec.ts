import { fireEvent, screen, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Terminal } from '@xterm/xterm';
import { OVERLAY_MIN_MS, SETTLE_MS } from '../../lib/domain/write-portal';
import { agent, harness, openProject, project, settle } from '../../test/harness';

type FakeTerminal = Terminal & { written: string[]; emitData(data: string): void };
const instances = () => (Terminal as unknown as { instances: FakeTerminal[] }).instances;

const alpha = agent('a1', 'Alpha');
const beta = agent('a2', 'Beta');
/** The typed text: an agent's ask carries the reply instruction, the user's message does not. */
const text = (ticket: string, task: string, from = 'Alpha') =>
  from === 'user'
    ? `[IdeA · task from user · ticket ${ticket}] ${task}`
    : `[IdeA · task from ${from} · ticket ${ticket}] ${task} (answer with idea_reply, ticket ${ticket}, or: idea reply --ticket ${ticket} "…")`;

/** The project open with Beta launched in its only cell (session s1, attached by this view). */
async function betaInACell() {
  const h = harness({ projects: [project('/p', { agents: [alpha, beta] })] });
  await openProject(h);
  await fireEvent.click(screen.getByTestId('launch-agent'));
  const options = await screen.findAllByTestId('launch-agent-option');
  await fireEvent.click(options.find((o) => o.dataset.agentId === 'a2')!);
  await screen.findByTestId('terminal');
  await settle();
  expect(h.workspace.activeTab!.agents[1].activity).toBe('idle');
  const writes = () => h.gateway.callsOf('terminals.write');
  const term = () => instances().at(-1)!;
  return { h, writes, term };
}

describe('the write portal in an agent cell', () => {
  beforeEach(() => {
    instances().length = 0;
  });
  afterEach(() => vi.useRealTimers());

  it('types a delegation through the ordered write path with its ticket, and acknowledges at the submit', async () => {
    const { h, writes, term } = await betaInACell();
    term().emitData('\r'); // an earlier human key: seq 0
    await settle();
    vi.useFakeTimers();

    h.gateway.backend.ask('/p', 'a1', 'a2', 'review\nthe diff');
    await vi.advanceTimersByTimeAsync(SETTLE_MS + 5);
    const overlay = screen.getByTestId('portal-overlay');
    expect(overlay).toHaveTextContent('Task from Alpha · ticket t1');
    expect(overlay).toHaveStyle({ pointerEvents: 'none' }); // a click still reaches the terminal
    expect(writes()).toEqual([
      ['s1', 0, '\r'],
      ['s1', 1, text('t1', 'review the diff'), 't1'],
    ]);

    term().emitData('x'); // held while IdeA types, not lost
    await vi.advanceTimersByTimeAsync(60);
    expect(writes().slice(2)).toEqual([
      ['s1', 2, '\r', 't1'],
      ['s1', 3, 'x'],
    ]);
    expect(h.gateway.callsOf('orchestration.delivered')).toEqual([['/p', 't1']]);

    term().emitData('y'); // relay restored at once; the overlay lingers a moment for the eye
    await vi.advanceTimersByTimeAsync(0);
    expect(writes().at(-1)).toEqual(['s1', 4, 'y']);
    expect(screen.getByTestId('portal-overlay')).toBeInTheDocument();
    await vi.advanceTimersByTimeAsync(OVERLAY_MIN_MS);
    expect(screen.queryByTestId('portal-overlay')).not.toBeInTheDocument();

    await vi.advanceTimersByTimeAsync(10_000);
    expect(writes().map((w) => w[2])).toEqual(['\r', text('t1', 'review the diff'), '\r', 'x', 'y']);
    expect(h.gateway.callsOf('orchestration.delivered')).toHaveLength(1);
  });

  it('waits after a recalled command instead of gluing the task to it', async () => {
    const { h, writes, term } = await betaInACell();
    term().emitData('echo hi');
    term().emitData('\r');
    term().emitData('\x1b[A'); // ↑: the CLI shows "echo hi" again
    await settle();
    vi.useFakeTimers();
    h.gateway.backend.ask('/p', 'a1', 'a2', 'review');
    await vi.advanceTimersByTimeAsync(5000);
    expect(writes().map((w) => w[2])).toEqual(['echo hi', '\r', '\x1b[A']);
    expect(screen.getByTestId('portal-waiting')).toHaveTextContent('1 task waits for an empty prompt line — press Enter or Ctrl-U');

    term().emitData('\x15');
    await vi.advanceTimersByTimeAsync(SETTLE_MS + 60);
    expect(writes().map((w) => w[2])).toEqual(['echo hi', '\r', '\x1b[A', '\x15', text('t1', 'review'), '\r']);
  });

  it('reports the human line to the backend on its transitions only', async () => {
    const { h, term } = await betaInACell();
    const reports = () => h.gateway.callsOf('orchestration.humanLine');
    term().emitData('a');
    term().emitData('b');
    await settle();
    expect(reports()).toEqual([['/p', 's1', true]]);
    term().emitData('\r');
    await settle();
    expect(reports()).toEqual([
      ['/p', 's1', true],
      ['/p', 's1', false],
    ]);
  });

  it('takes a line the backend says was left dirty for not empty, in a view that never saw those keys', async () => {
    const { h, writes, term } = await betaInACell();
    vi.useFakeTimers();
    h.gateway.push({
      events: [{ type: 'delegationReady', root: '/p', agentId: 'a2', sessionId: 's1', view: 'view-1', ticket: 't6', text: 'go', lineDirty: true }],
    });
    await vi.advanceTimersByTimeAsync(5000);
    expect(writes()).toEqual([]);
    expect(screen.getByTestId('portal-waiting')).toBeInTheDocument();
    term().emitData('\r');
    await vi.advanceTimersByTimeAsync(SETTLE_MS + 60);
    expect(writes().map((w) => w[2])).toEqual(['\r', 'go', '\r']);
  });

  it('drops a waiting delivery the backend ended before it was typed', async () => {
    const { h, writes, term } = await betaInACell();
    term().emitData('draft');
    await settle();
    h.gateway.backend.ask('/p', 'a1', 'a2', 'never mind');
    await settle();
    expect(screen.getByTestId('portal-waiting')).toBeInTheDocument();
    h.gateway.backend.finishTurn('a2', { state: 'failed', reason: 'TIMEOUT' });
    await settle();
    expect(screen.queryByTestId('portal-waiting')).not.toBeInTheDocument();
    term().emitData('\x15');
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS + 80));
    expect(writes().map((w) => w[2])).toEqual(['draft', '\x15']);
  });

  it('waits while the human has typed something, and types once the line is submitted', async () => {
    const { h, writes, term } = await betaInACell();
    term().emitData('git st');
    await settle();
    vi.useFakeTimers();

    await h.workspace.activeTab!.sendTask(['a2'], 'run the tests');
    await vi.advanceTimersByTimeAsync(5000);
    expect(writes().map((w) => w[2])).toEqual(['git st']);
    expect(screen.queryByTestId('portal-overlay')).not.toBeInTheDocument();
    expect(screen.getByTestId('portal-waiting')).toHaveTextContent('1 task waits for an empty prompt line — press Enter or Ctrl-U');

    term().emitData('\x1b[D'); // an arrow does not empty the line
    await vi.advanceTimersByTimeAsync(1000);
    expect(writes()).toHaveLength(2);

    term().emitData('\r');
    await vi.advanceTimersByTimeAsync(SETTLE_MS + 60);
    expect(writes().map((w) => w[2])).toEqual(['git st', '\x1b[D', '\r', text('t1', 'run the tests', 'user'), '\r']);
    expect(screen.getByTestId('portal-overlay')).toHaveTextContent('Task from you · ticket t1');
    expect(screen.queryByTestId('portal-waiting')).not.toBeInTheDocument();
  });

  it("ignores a delegationReady addressed to another window's view", async () => {
    const { h, writes } = await betaInACell();
    vi.useFakeTimers();
    h.gateway.push({
      events: [{ type: 'delegationReady', root: '/p', agentId: 'a2', sessionId: 's1', view: 'view-2', ticket: 't9', text: 'elsewhere', lineDirty: false }],
    });
    await vi.advanceTimersByTimeAsync(5000);
    expect(writes()).toEqual([]);
    expect(screen.queryByTestId('portal-overlay')).not.toBeInTheDocument();
    expect(h.gateway.callsOf('orchestration.delivered')).toEqual([]);
  });

  it('does not type a ticket again when the backend repeats it after the acknowledgement', async () => {
    const { h, writes } = await betaInACell();
    const ready = () =>
      h.gateway.push({ events: [{ type: 'delegationReady', root: '/p', agentId: 'a2', sessionId: 's1', view: 'view-1', ticket: 't3', text: 'once', lineDirty: false }] });
    vi.useFakeTimers();
    ready();
    ready();
    await vi.advanceTimersByTimeAsync(3000);
    ready();
    await vi.advanceTimersByTimeAsync(3000);
    expect(writes().map((w) => w[2])).toEqual(['once', '\r']);
    expect(h.gateway.callsOf('orchestration.delivered')).toEqual([['/p', 't3']]);
  });

  it('finishes a delivery under way before letting the session go when the view closes', async () => {
    const { h, writes } = await betaInACell();
    vi.useFakeTimers();
    h.gateway.backend.ask('/p', 'a1', 'a2', 'quick');
    await vi.advanceTimersByTimeAsync(SETTLE_MS + 5);
    expect(screen.getByTestId('portal-overlay')).toBeInTheDocument();

    const cell = screen.getByTestId('cell');
    await fireEvent.click(within(cell).getByTestId('cell-menu'));
    await fireEvent.click(within(cell).getByTestId('clear-cell'));
    await vi.advanceTimersByTimeAsync(100);
    expect(writes().map((w) => w[2])).toEqual([text('t1', 'quick'), '\r']);
    const order = h.gateway.calls.map((c) => c.method).filter((m) => m === 'orchestration.delivered' || m === 'terminals.detach');
    expect(order).toEqual(['orchestration.delivered', 'terminals.detach']);
  });

  it('uses the submit sequence and delay the delegation names', async () => {
    const { h, writes } = await betaInACell();
    vi.useFakeTimers();
    h.gateway.push({
      events: [
        { type: 'delegationReady', root: '/p', agentId: 'a2', sessionId: 's1', view: 'view-1', ticket: 't5', text: 'go', submitSequence: '\x1b\r', submitDelayMs: 200, lineDirty: false },
      ],
    });
    await vi.advanceTimersByTimeAsync(SETTLE_MS + 199);
    expect(writes().map((w) => w[2])).toEqual(['go']);
    await vi.advanceTimersByTimeAsync(1);
    expect(writes().map((w) => w[2])).toEqual(['go', '\x1b\r']);
  });

  it('a view shown again starts with an empty line and queue, and types what it is offered', async () => {
    const { h, writes, term } = await betaInACell();
    const ready = (ticket: string) =>
      h.gateway.push({ events: [{ type: 'delegationReady', root: '/p', agentId: 'a2', sessionId: 's1', view: 'view-1', ticket, text: ticket, lineDirty: false }] });
    term().emitData('draft');
    ready('t7');
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS + 80));
    expect(writes().map((w) => w[2])).toEqual(['draft']);

    // Detach from cell: the view goes with its local queue; nothing typed, nothing acknowledged
    const cell = screen.getByTestId('cell');
    await fireEvent.click(within(cell).getByTestId('cell-menu'));
    await fireEvent.click(within(cell).getByTestId('clear-cell'));
    await settle();
    expect(h.gateway.callsOf('terminals.detach')).toEqual([['s1']]);
    expect(h.gateway.callsOf('orchestration.delivered')).toEqual([]);

    await fireEvent.click(await screen.findByTestId('show-session'));
    await screen.findByTestId('terminal');
    await settle();
    ready('t7'); // the backend offers the pending delivery to the new view
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS + 80));
    expect(writes().map((w) => w[2])).toEqual(['draft', 't7', '\r']);
  });

  it('leaves plain shells alone: no portal, keys go straight through', async () => {
    const h = harness({ projects: [project('/p')] });
    await openProject(h);
    await fireEvent.click(screen.getByTestId('open-shell'));
    await screen.findByTestId('terminal');
    await settle();
    expect(h.terminals.portalOf('s1')).toBeUndefined();
    instances().at(-1)!.emitData('ls\r');
    await settle();
    expect(h.gateway.callsOf('terminals.write')).toEqual([['s1', 0, 'ls\r']]);
    expect(screen.queryByTestId('cell-activity')).not.toBeInTheDocument();
  });

  it('names a long ticket by its first 8 characters on the overlay (the whole one in its title)', async () => {
    const { h } = await betaInACell();
    vi.useFakeTimers();
    const ticket = '6f1c2a9e-4b7d-4f0e-9a55-0c3d2e1f7b88';
    h.gateway.push({
      events: [{ type: 'delegationReady', root: '/p', agentId: 'a2', sessionId: 's1', view: 'view-1', ticket, text: `[IdeA · task from Alpha · ticket ${ticket}] go`, lineDirty: false }],
    });
    await vi.advanceTimersByTimeAsync(SETTLE_MS + 5);
    const overlay = screen.getByTestId('portal-overlay');
    expect(overlay).toHaveTextContent('Task from Alpha · ticket 6f1c2a9e');
    expect(overlay).not.toHaveTextContent(ticket);
    expect(within(overlay).getByTitle(ticket)).toBeInTheDocument();
    expect(overlay).toHaveAttribute('data-ticket', ticket);
  });
});
