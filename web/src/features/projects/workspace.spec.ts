import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../lib/ports';
import { harness, project } from '../../test/harness';

const titles = (h: ReturnType<typeof harness>) => h.workspace.notices.map((n) => n.title);

describe('Workspace banner notices', () => {
  it('clears earlier open/create failures once a project opens', async () => {
    const h = harness({ projects: [project('/ok')], readOnly: ['/ro'] });
    await h.workspace.start();

    expect(await h.workspace.open('/missing')).toBe(false);
    expect(await h.workspace.create('/ro')).toBe(false);
    expect(titles(h)).toEqual(['Could not open /missing', 'Could not create a project in /ro']);

    expect(await h.workspace.create('/new')).toBe(true);
    expect(h.workspace.notices).toEqual([]);
  });

  it('clears an earlier open failure when an open project is opened again', async () => {
    const h = harness({ projects: [project('/ok')] });
    await h.workspace.start();
    await h.workspace.open('/ok');
    expect(await h.workspace.open('/does/not/exist')).toBe(false);
    expect(titles(h)).toEqual(['Could not open /does/not/exist']);
    expect(await h.workspace.open('/ok')).toBe(true); // already open: its tab is focused
    expect(h.workspace.notices).toEqual([]);
  });

  it("says a file's new problem in place of its old one", async () => {
    // Trial finding: permissions.json fixed as JSON but broken in a field kept "invalid JSON".
    const h = harness({ projects: [project('/p')] });
    await h.workspace.start();
    await h.workspace.open('/p');
    const push = (message: string) =>
      h.workspace.handlePush({ events: [{ type: 'problem', root: '/p', file: '/p/.ideai/permissions.json', message }] });
    push('invalid JSON at line 2, column 1');
    push("projectDefaults.rules[0].capability: input should be 'read' or 'write', not 'wrte'");
    expect(h.workspace.notices.map((n) => n.message)).toEqual([
      "projectDefaults.rules[0].capability: input should be 'read' or 'write', not 'wrte'",
    ]);
  });

  it('keeps problems with project files until they are dismissed', async () => {
    const h = harness({
      projects: [project('/bad', { problems: [{ file: '.ideai/agents.json', message: 'invalid JSON' }] }), project('/ok')],
    });
    await h.workspace.start();
    await h.workspace.open('/nowhere');
    await h.workspace.open('/bad');

    expect(titles(h)).toEqual(['.ideai/agents.json']);
    await h.workspace.open('/ok');
    await h.workspace.open('/bad');
    expect(titles(h)).toEqual(['.ideai/agents.json']);

    h.workspace.dismiss(h.workspace.notices[0].id);
    expect(h.workspace.notices).toEqual([]);
  });

  it('clears a failed layout edit of a project once a later edit of it succeeds', async () => {
    const h = harness({ projects: [project('/p')] });
    await h.workspace.start();
    await h.workspace.open('/p');
    const tab = h.workspace.activeTab!;

    h.gateway.failNext('layout.edit', new GatewayError('INVALID', 'no such node'));
    await tab.editLayout({ kind: 'split', nodeId: 'nope', direction: 'row' });
    expect(titles(h)).toEqual(['Layout split failed']);

    await tab.splitCell('n1', 'column');
    expect(h.workspace.notices).toEqual([]);
  });

  it('clears "Typing failed" once a keystroke goes through again', async () => {
    const h = harness();
    h.workspace.report(new GatewayError('NOT_FOUND', 'no session'), 'Typing failed', { kind: 'terminal' });
    h.workspace.report(new GatewayError('INTERNAL', 'boom'), 'Could not load profiles', { kind: 'profiles' });
    h.workspace.resolved('terminal');
    expect(titles(h)).toEqual(['Could not load profiles']);
    await h.workspace.reloadProfiles();
    expect(h.workspace.notices).toEqual([]);
  });
});
