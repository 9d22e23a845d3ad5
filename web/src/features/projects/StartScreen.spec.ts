import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import App from '../../App.svelte';
import { harness, project } from '../../test/harness';

async function boot(h: ReturnType<typeof harness>) {
  render(App, { props: { services: h }, context: h.context });
  await h.workspace.start();
  return screen.findByTestId('start-screen');
}

describe('start screen', () => {
  it('opens an existing project into a tab', async () => {
    const h = harness({ projects: [project('/work/alpha')] });
    await boot(h);

    await fireEvent.click(screen.getByTestId('open-project'));
    await fireEvent.input(screen.getByTestId('project-folder'), { target: { value: '/work/alpha' } });
    await fireEvent.click(screen.getByTestId('project-submit'));

    expect(await screen.findByTestId('tab-alpha')).toBeInTheDocument();
    expect(h.gateway.callsOf('projects.open')).toEqual([['/work/alpha']]);
    expect(screen.getAllByTestId('cell')).toHaveLength(1);
  });

  it('creates a project in a folder chosen with Browse…', async () => {
    const h = harness({ pickedFolder: '/home/me/beta' });
    await boot(h);

    await fireEvent.click(screen.getByTestId('new-project'));
    await fireEvent.click(screen.getByRole('button', { name: 'Browse…' }));
    await waitFor(() => expect(screen.getByTestId('project-folder')).toHaveValue('/home/me/beta'));
    await fireEvent.click(screen.getByTestId('project-submit'));

    expect(await screen.findByTestId('tab-beta')).toBeInTheDocument();
    expect(h.gateway.callsOf('projects.create')).toEqual([['/home/me/beta']]);
  });

  it('focuses the tab of a project that is already open instead of opening it again', async () => {
    const h = harness({ projects: [project('/work/alpha'), project('/work/gamma')] });
    await boot(h);
    await h.workspace.open('/work/alpha');
    await h.workspace.open('/work/gamma');
    expect(h.workspace.activeRoot).toBe('/work/gamma');

    await h.workspace.open('/work/alpha/');

    expect(h.workspace.activeRoot).toBe('/work/alpha');
    expect(h.gateway.callsOf('projects.open')).toHaveLength(2);
    expect(h.workspace.tabs).toHaveLength(2);
  });

  it('shows a clear error when the folder is not writable, and opens nothing', async () => {
    const h = harness({ readOnly: ['/ro'] });
    await boot(h);

    await fireEvent.click(screen.getByTestId('new-project'));
    await fireEvent.input(screen.getByTestId('project-folder'), { target: { value: '/ro' } });
    await fireEvent.click(screen.getByTestId('project-submit'));

    expect(await screen.findByTestId('banner')).toHaveTextContent('folder is not writable: /ro');
    expect(h.workspace.tabs).toHaveLength(0);
  });

  it('lists recent projects and opens one on a click anywhere on the entry (path included)', async () => {
    const h = harness({
      projects: [project('/work/alpha')],
      recent: [{ root: '/work/alpha', name: 'alpha', lastOpenedMs: 1_700_000_000_000 }],
    });
    await boot(h);
    expect(screen.getByRole('button', { name: /alpha/ })).toBeInTheDocument();
    await fireEvent.click(screen.getByText('/work/alpha'));
    expect(await screen.findByTestId('tab-alpha')).toBeInTheDocument();
  });

  it('closes a tab and returns to the start screen', async () => {
    const h = harness({ projects: [project('/work/alpha')] });
    await boot(h);
    await h.workspace.open('/work/alpha');
    await fireEvent.click(await screen.findByTestId('close-tab-alpha'));
    expect(await screen.findByTestId('start-screen')).toBeInTheDocument();
    expect(h.gateway.callsOf('windows.closeTab')).toEqual([['/work/alpha', []]]);
  });
});
