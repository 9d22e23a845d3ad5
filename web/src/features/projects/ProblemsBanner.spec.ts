import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { harness, project } from '../../test/harness';
import ProblemsBanner from './ProblemsBanner.svelte';

describe('ProblemsBanner', () => {
  it('lists the active project problems as file: message', async () => {
    const h = harness({
      projects: [project('/p', { layouts: null, problems: [{ file: '.ideai/layouts.json', message: 'invalid JSON at line 3' }] })],
    });
    render(ProblemsBanner, { context: h.context });
    await h.workspace.open('/p');

    const banner = await screen.findByTestId('banner');
    expect(banner).toHaveTextContent('.ideai/layouts.json: invalid JSON at line 3');
  });

  it('adds problems pushed by the backend and can be dismissed', async () => {
    const h = harness({ projects: [project('/p')] });
    render(ProblemsBanner, { context: h.context });
    await h.workspace.open('/p');

    h.gateway.push({ events: [{ type: 'problem', root: '/p', file: '.ideai/project.json', message: 'unexpected token' }] });
    expect(await screen.findByTestId('banner')).toHaveTextContent('.ideai/project.json: unexpected token');

    await fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('banner')).not.toBeInTheDocument();
  });

  it('leaves a problem of a project in no tab of this window to the window that shows it', async () => {
    const h = harness({ projects: [project('/p')] });
    render(ProblemsBanner, { context: h.context });
    h.gateway.push({ events: [{ type: 'problem', root: '/elsewhere', file: '/elsewhere/.ideai/layouts.json', message: 'bad' }] });
    h.gateway.push({ events: [{ type: 'problem', file: '/data/profiles.json', message: 'unreadable' }] });
    expect(await screen.findByTestId('banner')).toHaveTextContent('/data/profiles.json: unreadable');
    expect(screen.getByTestId('banner')).not.toHaveTextContent('layouts.json');
  });

  it('hides problems of other projects', async () => {
    const h = harness({ projects: [project('/a', { problems: [{ file: 'x', message: 'bad' }] }), project('/b')] });
    render(ProblemsBanner, { context: h.context });
    await h.workspace.open('/a');
    await h.workspace.open('/b');
    expect(screen.queryByTestId('banner')).not.toBeInTheDocument();
  });
});
