import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import App from '../../App.svelte';
import { harness, project } from '../../test/harness';

async function boot(h: ReturnType<typeof harness>) {
  render(App, { props: { services: h }, context: h.context });
  await h.workspace.start();
}

const shellIn = (sessionId: string) =>
  project('/work/alpha', {
    sessions: [{ sessionId, kind: 'shell', alive: true, exitCode: null, title: 'bash 1' }],
    layouts: { version: 1, activeId: 'L1', layouts: [{ id: 'L1', name: 'Default', kind: 'terminal', tree: { root: { type: 'leaf', node: { id: 'n1', session: sessionId } } } }] },
  });

/** An agent of /work/alpha that runs. */
const runningAlpha = { agentId: 'a1', name: 'Alpha', mdPath: 'agents/a.md', profileId: 'claude-code', synchronized: false, skills: [], running: true, activity: 'idle' as const, queueDepth: 0 };

/** Window menu → Quit. */
async function askToQuit(): Promise<void> {
  await fireEvent.click(screen.getByTestId('window-menu'));
  await fireEvent.click(screen.getByTestId('menu-quit'));
}

describe('windows and tabs', () => {
  it('asks before closing a cell whose shell runs a process; cancel keeps it, kill closes it', async () => {
    const h = harness({ projects: [shellIn('s1')] });
    h.gateway.backend.seedSession({ sessionId: 's1', root: '/work/alpha', kind: 'shell' });
    h.gateway.backend.busySessions.set('s1', 'sleep');
    await boot(h);
    await h.workspace.open('/work/alpha');
    await fireEvent.click(await screen.findByTestId('close-cell'));
    const dialog = await screen.findByTestId('confirm-dialog');
    expect(dialog).toHaveTextContent('sleep');
    await fireEvent.click(screen.getByTestId('confirm-cancel'));
    expect(screen.queryByTestId('confirm-dialog')).toBeNull();
    expect(h.gateway.callsOf('layout.edit')).toEqual([]);

    await fireEvent.click(screen.getByTestId('close-cell'));
    await fireEvent.click(await screen.findByTestId('confirm-keep'));
    // one edit, one undo step (a detach then a close made Ctrl+Z bring back an empty cell)
    await waitFor(() => expect(h.gateway.callsOf('layout.edit')).toEqual([['/work/alpha', { kind: 'close', nodeId: 'n1', keep: true }]]));
  });

  it('a project another window shows is not opened here: that window comes forward and a toast says so', async () => {
    const h = harness({ projects: [project('/work/alpha')] });
    h.gateway.backend.windows.push({ id: 'w2', tabs: ['/work/alpha'], activeRoot: null });
    await boot(h);
    expect(await h.workspace.open('/work/alpha')).toBe(true);
    expect(h.workspace.tabs).toEqual([]);
    expect(h.gateway.backend.windows[1].activeRoot).toBe('/work/alpha');
    await h.workspace.open('/work/alpha'); // again: the same toast, counted
    expect(h.workspace.toasts.list.map((t) => t.message)).toEqual([
      'alpha is open in another window: that window was brought to the front',
    ]);
  });

  it('closes an idle shell cell without asking', async () => {
    const h = harness({ projects: [shellIn('s1')] });
    h.gateway.backend.seedSession({ sessionId: 's1', root: '/work/alpha', kind: 'shell' });
    await boot(h);
    await h.workspace.open('/work/alpha');
    await fireEvent.click(await screen.findByTestId('close-cell'));
    await waitFor(() => expect(h.gateway.callsOf('layout.edit')).toEqual([['/work/alpha', { kind: 'close', nodeId: 'n1' }]]));
    expect(screen.queryByTestId('confirm-dialog')).toBeNull();
  });

  it('closing a tab with a busy shell offers to keep it running in the background', async () => {
    const h = harness({ projects: [shellIn('s1')] });
    h.gateway.backend.seedSession({ sessionId: 's1', root: '/work/alpha', kind: 'shell' });
    h.gateway.backend.busySessions.set('s1', 'vim');
    await boot(h);
    await h.workspace.open('/work/alpha');
    await fireEvent.click(await screen.findByTestId('close-tab-alpha'));
    expect((await screen.findAllByTestId('busy-process')).map((e) => e.textContent)).toEqual(['Shell · vim']); // the session's title, as in the quit question
    await fireEvent.click(await screen.findByTestId('confirm-keep'));
    await waitFor(() => expect(h.gateway.callsOf('windows.closeTab')).toEqual([['/work/alpha', ['s1']]]));
    // out of sight now: a toast says what runs on and how to see it again
    await waitFor(() => expect(h.workspace.toasts.list.map((t) => t.message)).toEqual([
      'Shell · vim runs on in the background: open alpha again (click here) to see it',
    ]));
    h.workspace.goToAgent(h.workspace.toasts.list[0].root); // the toast clicked
    await waitFor(() => expect(h.workspace.activeRoot).toBe('/work/alpha'));
  });

  it('quitting with a running agent asks to stop it; cancel does not quit', async () => {
    const h = harness({ projects: [project('/work/alpha', { agents: [runningAlpha] })] });
    await boot(h);
    await h.workspace.open('/work/alpha');
    await askToQuit();
    expect(await screen.findByTestId('confirm-dialog')).toHaveTextContent('Alpha');
    await fireEvent.click(screen.getByTestId('confirm-cancel'));
    expect(h.gateway.callsOf('windows.quit')).toEqual([]);
    await askToQuit();
    await fireEvent.click(await screen.findByTestId('confirm-stop-agents'));
    await waitFor(() => expect(h.gateway.callsOf('windows.quit')).toEqual([[]]));
  });

  it('quitting with busy shells (one detached) and a running agent names them all in one question; cancel does not quit', async () => {
    const h = harness({
      projects: [
        project('/work/alpha', {
          sessions: [
            { sessionId: 's1', kind: 'shell', alive: true, exitCode: null, title: 'bash 1' },
            { sessionId: 's2', kind: 'shell', alive: true, exitCode: null, title: 'bash 2' },
          ],
          agents: [runningAlpha],
          layouts: { version: 1, activeId: 'L1', layouts: [{ id: 'L1', name: 'Default', kind: 'terminal', tree: { root: { type: 'leaf', node: { id: 'n1', session: 's1' } } } }] },
        }),
      ],
    });
    h.gateway.backend.busySessions.set('s1', 'sleep');
    h.gateway.backend.busySessions.set('s2', 'vim');
    await boot(h);
    await h.workspace.open('/work/alpha');
    await askToQuit();
    await screen.findByTestId('confirm-dialog');
    expect(screen.getByTestId('quit-agents')).toHaveTextContent('Alpha');
    const shells = screen.getAllByTestId('quit-shell').map((e) => e.textContent);
    expect(shells).toEqual(['bash 1 · sleep (alpha)', 'bash 2 · vim (alpha, in the background)']);
    expect(screen.getByTestId('confirm-stop-agents')).toHaveTextContent('Kill and quit');
    expect(screen.queryByTestId('confirm-keep')).toBeNull();
    await fireEvent.click(screen.getByTestId('confirm-cancel'));
    expect(h.gateway.callsOf('windows.quit')).toEqual([]);
    await askToQuit();
    await fireEvent.click(await screen.findByTestId('confirm-stop-agents'));
    await waitFor(() => expect(h.gateway.callsOf('windows.quit')).toEqual([[]]));
  });

  it('quitting with only idle shells does not ask', async () => {
    const h = harness({ projects: [shellIn('s1')] });
    await boot(h);
    await h.workspace.open('/work/alpha');
    await askToQuit();
    await waitFor(() => expect(h.gateway.callsOf('windows.quit')).toEqual([[]]));
    expect(screen.queryByTestId('confirm-dialog')).toBeNull();
  });

  it('a tab moved to another window leaves this one without closing the project; one moved here opens', async () => {
    const h = harness({ projects: [project('/work/alpha'), project('/work/beta')] });
    await boot(h);
    await h.workspace.open('/work/alpha');
    await h.workspace.open('/work/beta');
    await h.gateway.windows.open();
    await h.gateway.windows.moveTab('/work/alpha', 'w2');
    await waitFor(() => expect(screen.queryByTestId('tab-alpha')).toBeNull());
    expect(h.gateway.callsOf('projects.close')).toEqual([]);
    expect(h.gateway.callsOf('windows.closeTab')).toEqual([]);
    await h.gateway.windows.moveTab('/work/alpha', 'w1', 0);
    expect(await screen.findByTestId('tab-alpha')).toBeInTheDocument();
    const labels = screen.getAllByTestId('tab-label').map((el) => el.textContent);
    expect(labels).toEqual(['alpha', 'beta']);
  });

  it('a saved tab whose folder has no .ideai/ says so and initialises it in place', async () => {
    const h = harness({ projects: [project('/work/alpha')], plainFolders: ['/work/plain'] });
    h.gateway.backend.windows[0].tabs.push('/work/plain', '/work/alpha');
    await boot(h);
    await fireEvent.click(await screen.findByTestId('tab-missing'));
    const shown = await screen.findByTestId('folder-not-found');
    expect(shown).toHaveTextContent('Not an IdeA project');
    expect(shown).not.toHaveTextContent('is gone');
    await fireEvent.click(screen.getByTestId('initialise-folder'));
    await waitFor(() => expect(screen.queryByTestId('folder-not-found')).toBeNull());
    expect(h.gateway.callsOf('projects.create').map((args) => args[0])).toEqual(['/work/plain']);
    expect(screen.getByTestId('tab-plain')).toBeInTheDocument();
  });

  it('a saved tab whose folder is gone shows "folder not found" with remove', async () => {
    const h = harness({ projects: [project('/work/alpha')] });
    h.gateway.backend.windows[0].tabs.push('/gone/proj', '/work/alpha');
    await boot(h);
    expect(await screen.findByTestId('tab-missing')).toBeInTheDocument();
    await fireEvent.click(screen.getByTestId('tab-missing'));
    expect(await screen.findByTestId('folder-not-found')).toHaveTextContent('/gone/proj');
    await fireEvent.click(screen.getByTestId('remove-tab'));
    await waitFor(() => expect(screen.queryByTestId('tab-missing')).toBeNull());
    expect(h.gateway.callsOf('windows.closeTab')).toEqual([['/gone/proj', []]]);
    expect(screen.getByTestId('tab-alpha')).toBeInTheDocument();
  });

  it('Relocate… takes a typed (or browsed) folder: the tab shows the project there in place', async () => {
    const h = harness({ projects: [project('/work/alpha'), project('/moved/proj')], pickedFolder: '/moved/proj' });
    h.gateway.backend.windows[0].tabs.push('/gone/proj', '/work/alpha');
    await boot(h);
    await fireEvent.click(await screen.findByTestId('tab-missing'));
    await fireEvent.click(await screen.findByTestId('relocate-folder'));
    const path = screen.getByTestId<HTMLInputElement>('relocate-path');
    expect(path.value).toBe('/gone/');
    expect(path).toHaveFocus();

    // A folder that is not there either: said next to the field, the tab stays.
    await fireEvent.input(path, { target: { value: '/nowhere' } });
    await fireEvent.click(screen.getByTestId('relocate-submit'));
    expect(await screen.findByTestId('relocate-error')).toHaveTextContent('/nowhere: folder not found');
    expect(screen.getByTestId('tab-missing')).toBeInTheDocument();

    await fireEvent.click(screen.getByTestId('relocate-browse'));
    await waitFor(() => expect(path.value).toBe('/moved/proj'));
    await fireEvent.click(screen.getByTestId('relocate-submit'));
    await waitFor(() => expect(screen.queryByTestId('tab-missing')).toBeNull());
    // the refused '/nowhere' first (the tab stayed), then the folder that opened
    expect(h.gateway.callsOf('windows.relocate')).toEqual([['/gone/proj', '/nowhere'], ['/gone/proj', '/moved/proj']]);
    expect(await screen.findByTestId('tab-proj')).toBeInTheDocument();
    expect(screen.queryByTestId('folder-not-found')).not.toBeInTheDocument();
    expect(h.workspace.activeRoot).toBe('/moved/proj');
    expect(document.querySelector('[data-testid="project-layout"][data-root="/moved/proj"]')).not.toBeNull();
    expect(screen.getAllByTestId('tab-label').map((el) => el.textContent)).toEqual(['proj', 'alpha']); // in place
  });
});
