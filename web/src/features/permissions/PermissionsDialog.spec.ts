import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { MockPermissionsSeed } from '../../lib/adapters/mock-backend';
import type { PermissionsDoc } from '../../lib/ports';
import { agent, harness, openProject, project, settle } from '../../test/harness';

const WRITE_PROJECT_ONLY: PermissionsDoc = {
  version: 1,
  projectDefaults: { rules: [{ capability: 'write', effect: 'allow', paths: ['**'] }], fallback: 'deny' },
};

async function opened(permissions: Record<string, MockPermissionsSeed> = {}, platform?: string) {
  const h = harness({
    projects: [project('/p', { agents: [agent('a1', 'Alpha'), agent('a2', 'Boxed', 'shell')] })],
    permissions,
    platform,
  });
  await openProject(h);
  await settle();
  return h;
}

async function openProjectEditor() {
  await fireEvent.click(screen.getByTestId('open-project-permissions'));
  const editor = screen.getByTestId('permissions-editor');
  await waitFor(() => expect(within(editor).queryByText('Loading…')).not.toBeInTheDocument());
  return editor;
}

const card = (agentId: string) => screen.getAllByTestId('agent-item').find((c) => c.dataset.agentId === agentId)!;

async function openAgentEditor(agentId: string) {
  await fireEvent.click(within(card(agentId)).getByTestId('edit-permissions'));
  const editor = screen.getByTestId('permissions-editor');
  await waitFor(() => expect(within(editor).queryByText('Loading…')).not.toBeInTheDocument());
  return editor;
}

async function test(capability: string, target: string) {
  const user = userEvent.setup();
  await user.selectOptions(screen.getByTestId('permissions-test-capability'), capability);
  await user.clear(screen.getByTestId('permissions-test-target'));
  await user.type(screen.getByTestId('permissions-test-target'), target);
  await user.click(screen.getByTestId('permissions-test-run'));
  return screen.findByTestId('permissions-test-result');
}

describe('the project permissions editor', () => {
  it('poses a first rule, saves the whole document, and says what the OS enforces here', async () => {
    const h = await opened();
    const user = userEvent.setup();
    const editor = await openProjectEditor();
    expect(within(editor).getByTestId('permissions-machine')).toHaveTextContent('Landlock ABI 7');
    expect(within(editor).getByText(/only the CLI's own settings can refuse them/)).toBeInTheDocument();
    expect(within(editor).getByTestId('permissions-replaces-vendor')).toHaveTextContent("IdeA's sandbox replaces the vendor's bubblewrap");
    expect(within(editor).getByTestId('permissions-unposed')).toHaveTextContent('No permissions are posed');

    await user.click(screen.getByTestId('permissions-pose'));
    await user.click(screen.getByTestId('permissions-add-rule'));
    const [rule] = screen.getAllByTestId('permission-rule');
    expect(within(rule).getByTestId('rule-enforcement')).toHaveTextContent('OS-enforced');
    await fireEvent.input(within(rule).getByTestId('rule-patterns'), { target: { value: '**' } });
    await user.selectOptions(screen.getByTestId('permissions-fallback'), 'deny');
    await user.click(screen.getByTestId('permissions-save'));

    await screen.findByTestId('permissions-saved');
    expect(h.gateway.callsOf('permissions.save')).toEqual([['/p', WRITE_PROJECT_ONLY]]);

    await user.click(screen.getByTestId('permissions-add-rule'));
    await user.selectOptions(within(screen.getAllByTestId('permission-rule')[1]).getByTestId('rule-capability'), 'executeBash');
    expect(within(screen.getAllByTestId('permission-rule')[1]).getByTestId('rule-enforcement')).toHaveTextContent('advisory');
  }, 15_000);

  it('tests a path beside the project (denied by the fallback, the kernel refuses) and one inside (allowed by the rule)', async () => {
    await opened({ '/p': WRITE_PROJECT_ONLY });
    await openProjectEditor();
    const beside = await test('write', '/side/escaped.txt');
    expect(beside).toHaveAttribute('data-effect', 'deny');
    expect(beside).toHaveAttribute('data-os-allowed', 'false');
    expect(within(beside).getByTestId('permissions-test-explanation')).toHaveTextContent("no rule matches: the project's fallback");
    expect(within(beside).getByTestId('permissions-test-os')).toHaveTextContent('the kernel refuses it (EACCES)');

    const inside = await test('write', 'src/app.py');
    await waitFor(() => expect(inside).toHaveAttribute('data-effect', 'allow'));
    expect(within(inside).getByTestId('permissions-test-explanation')).toHaveTextContent('projectDefaults.rules[0]');

    const command = await test('executeBash', 'git push');
    await waitFor(() => expect(command).toHaveAttribute('data-effect', 'deny'));
    expect(within(command).getByTestId('permissions-test-os')).toHaveTextContent('advisory');
  }, 15_000);

  it('refuses an invalid glob naming it, keeps the draft and marks the field', async () => {
    const h = await opened({ '/p': WRITE_PROJECT_ONLY });
    const user = userEvent.setup();
    await openProjectEditor();
    const patterns = within(screen.getAllByTestId('permission-rule')[0]).getByTestId('rule-patterns');
    await fireEvent.input(patterns, { target: { value: 'src/**\n../outside/**' } });
    await user.click(screen.getByTestId('permissions-save'));
    const error = await screen.findByTestId('permissions-save-error');
    expect(error).toHaveTextContent("projectDefaults.rules[0].paths[1]: '../outside/**': '..' is not allowed");
    expect(error).not.toHaveTextContent('INVALID'); // the code is no words of the user's
    expect(patterns).toHaveClass('invalid');
    expect((patterns as HTMLTextAreaElement).value).toBe('src/**\n../outside/**');
    expect(h.gateway.backend.permissions.get('/p')).toEqual(WRITE_PROJECT_ONLY);
  });

  it('reports a corrupt permissions.json and offers no way to save over it', async () => {
    const h = await opened({ '/p': 'corrupt' });
    const editor = await openProjectEditor();
    const error = within(editor).getByTestId('permissions-load-error');
    expect(error).toHaveAttribute('data-code', 'CORRUPT_FILE');
    expect(error).toHaveTextContent('/p/.ideai/permissions.json');
    expect(error).toHaveTextContent('IdeA will not overwrite it');
    expect(within(editor).queryByTestId('permissions-save')).not.toBeInTheDocument();
    expect(h.gateway.callsOf('permissions.save')).toEqual([]);
  });

  it('says the OS sandbox is a no-op on macOS, and claims no vendor sandbox is replaced', async () => {
    await opened({ '/p': WRITE_PROJECT_ONLY }, 'darwin');
    const editor = await openProjectEditor();
    expect(within(editor).getByTestId('permissions-machine')).toHaveTextContent('No OS sandbox on macOS (a no-op here)');
    expect(within(editor).queryByTestId('permissions-replaces-vendor')).not.toBeInTheDocument();
    const result = await test('write', '/side/x');
    expect(within(result).getByTestId('permissions-test-os')).toHaveTextContent('not enforced on this machine');
  });

  it('asks before closing with unsaved changes (Escape), and closes at once otherwise', async () => {
    await opened({ '/p': WRITE_PROJECT_ONLY });
    const user = userEvent.setup();
    await openProjectEditor();
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('permissions-editor')).not.toBeInTheDocument();

    await openProjectEditor();
    await user.click(screen.getByTestId('permissions-add-rule'));
    await user.keyboard('{Escape}');
    expect(screen.getByTestId('permissions-confirm-close')).toBeInTheDocument();
    // Escape again keeps editing: only "Discard changes" discards (as in the agent form).
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('permissions-confirm-close')).not.toBeInTheDocument();
    expect(screen.getByTestId('permissions-editor')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await user.click(screen.getByTestId('permissions-discard'));
    expect(screen.queryByTestId('permissions-editor')).not.toBeInTheDocument();
  });
});

describe("an agent's permissions editor", () => {
  it('shows the inherited defaults, then an override of its own saved under agents.<id>', async () => {
    const h = await opened({ '/p': WRITE_PROJECT_ONLY });
    const user = userEvent.setup();
    const editor = await openAgentEditor('a1');
    expect(within(editor).getByText('Permissions — Alpha')).toBeInTheDocument();
    expect(within(editor).getByTestId('permissions-replaces-vendor')).toHaveTextContent("IdeA's sandbox replaces Claude Code's own sandbox (bubblewrap)");
    expect(within(editor).getByTestId('permissions-inherited')).toBeInTheDocument();
    expect(within(editor).getByTestId('rule-patterns')).toBeDisabled();

    await user.click(screen.getByTestId('permissions-override'));
    await user.click(screen.getByTestId('permissions-add-rule'));
    await user.selectOptions(screen.getByTestId('rule-effect'), 'deny');
    await fireEvent.input(screen.getByTestId('rule-patterns'), { target: { value: 'secrets/**' } });
    await user.click(screen.getByTestId('permissions-save'));
    await screen.findByTestId('permissions-saved');
    const [[, saved]] = h.gateway.callsOf('permissions.save') as [[string, PermissionsDoc]];
    expect(saved.projectDefaults).toEqual(WRITE_PROJECT_ONLY.projectDefaults);
    expect(saved.agents).toEqual({ a1: { rules: [{ capability: 'write', effect: 'deny', paths: ['secrets/**'] }], fallback: 'deny' } });
  });

  it("a shell agent's editor does not speak of a vendor sandbox; its recent denials are listed as they come", async () => {
    const h = await opened({ '/p': WRITE_PROJECT_ONLY });
    const editor = await openAgentEditor('a2');
    expect(within(editor).queryByTestId('permissions-replaces-vendor')).not.toBeInTheDocument();
    expect(within(editor).getByTestId('permissions-no-denials')).toBeInTheDocument();
    h.gateway.backend.reportDenial('a2', { source: 'cli', tool: 'sh', target: '/side/x', message: 'EACCES: Permission denied (as the terminal printed it)' });
    const [denial] = await within(editor).findAllByTestId('permissions-denial');
    expect(denial).toHaveTextContent('sh /side/x — EACCES: Permission denied');
  });
});

describe('typing in the rule fields (no blur)', () => {
  const patternsBox = (index = 0) => within(screen.getAllByTestId('permission-rule')[index]).getByTestId<HTMLTextAreaElement>('rule-patterns');

  it('counts every keystroke in a patterns box as an edit: Save enabled, Ctrl+S saves what is typed', async () => {
    const h = await opened();
    const user = userEvent.setup();
    await openProjectEditor();
    await user.click(screen.getByTestId('permissions-pose'));
    await user.click(screen.getByTestId('permissions-add-rule'));
    await user.click(screen.getByTestId('permissions-save'));
    await screen.findByTestId('permissions-saved');

    await user.type(patternsBox(), 'docs/**');
    expect(patternsBox()).toHaveFocus();
    expect(screen.getByTestId('permissions-save')).toBeEnabled();
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
    expect(screen.queryByTestId('permissions-saved')).not.toBeInTheDocument();

    await user.keyboard('{Control>}s{/Control}');
    await screen.findByTestId('permissions-saved');
    const saves = h.gateway.callsOf('permissions.save') as [string, PermissionsDoc][];
    expect(saves.at(-1)?.[1].projectDefaults.rules).toEqual([{ capability: 'write', effect: 'allow', paths: ['docs/**'] }]);
    expect(h.gateway.backend.permissions.get('/p')).toMatchObject({ projectDefaults: { rules: [{ paths: ['docs/**'] }] } });
    expect(patternsBox()).toHaveValue('docs/**');
  });

  it('asks before Escape closes over typing not yet saved (the focus still in the box)', async () => {
    await opened({ '/p': WRITE_PROJECT_ONLY });
    const user = userEvent.setup();
    await openProjectEditor();
    await user.type(patternsBox(), '{End}{Enter}docs/**');
    await user.keyboard('{Escape}');
    expect(screen.getByTestId('permissions-editor')).toBeInTheDocument();
    expect(screen.getByTestId('permissions-confirm-close')).toHaveTextContent('Close without saving?');
    expect(patternsBox()).toHaveValue('**\ndocs/**');
  });

  it('keeps the raw text under the cursor: a trailing newline or an empty line mid-edit is not reformatted, and saves as one pattern a line', async () => {
    const h = await opened({ '/p': WRITE_PROJECT_ONLY });
    const user = userEvent.setup();
    await openProjectEditor();
    const box = patternsBox();
    await user.type(box, '{End}{Enter}');
    expect(box).toHaveValue('**\n');
    expect(screen.getByTestId('permissions-save')).toBeEnabled();
    await user.type(box, '{Enter} src/** {Enter}');
    expect(box).toHaveValue('**\n\n src/** \n');
    await user.type(box, 'lib/**');
    expect(box).toHaveValue('**\n\n src/** \nlib/**');
    expect(box.selectionStart).toBe(box.value.length);

    await user.keyboard('{Control>}s{/Control}');
    await screen.findByTestId('permissions-saved');
    const [[, saved]] = h.gateway.callsOf('permissions.save') as [[string, PermissionsDoc]];
    expect(saved.projectDefaults.rules).toEqual([{ capability: 'write', effect: 'allow', paths: ['**', 'src/**', 'lib/**'] }]);
    expect(box).toHaveValue('**\n\n src/** \nlib/**'); // saving does not reformat what is in the box either
    await user.type(box, '{Enter}');
    expect(box).toHaveValue('**\n\n src/** \nlib/**\n');
  });

  it('tests against what is typed, and the box shows the stored patterns again once read afresh', async () => {
    await opened({ '/p': WRITE_PROJECT_ONLY });
    const user = userEvent.setup();
    await openProjectEditor();
    await user.clear(patternsBox());
    await user.type(patternsBox(), ' src/**{Enter}');
    expect(within(screen.getByTestId('permissions-test')).getByRole('heading')).toHaveTextContent('(against the unsaved rules)');
    const outside = await test('write', 'x.txt');
    expect(outside).toHaveAttribute('data-effect', 'deny');
    await user.keyboard('{Escape}');
    await user.click(screen.getByTestId('permissions-discard'));
    await openProjectEditor();
    expect(patternsBox()).toHaveValue('**');
  });

  it('keeps the cursor where the user types in the middle of the box', async () => {
    await opened({ '/p': WRITE_PROJECT_ONLY });
    const user = userEvent.setup();
    await openProjectEditor();
    const box = patternsBox();
    await user.type(box, 'src/**{Enter}{Enter}', { initialSelectionStart: 0, initialSelectionEnd: 0 });
    expect(box).toHaveValue('src/**\n\n**');
    expect(box.selectionStart).toBe(8);
    await user.type(box, 'lib/**', { skipClick: true });
    expect(box).toHaveValue('src/**\n\nlib/****');
    expect(box.selectionStart).toBe(14);
  });

  it('keeps what is typed while a save is under way (unsaved, then saved by the next Ctrl+S)', async () => {
    const h = await opened({ '/p': WRITE_PROJECT_ONLY });
    const user = userEvent.setup();
    await openProjectEditor();
    const save = h.gateway.permissions.save.bind(h.gateway.permissions);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const spy = vi.spyOn(h.gateway.permissions, 'save').mockImplementationOnce(async (root, doc) => {
      await held;
      return save(root, doc);
    });
    await user.type(patternsBox(), '{End}{Enter}src/**');
    await user.keyboard('{Control>}s{/Control}');
    await user.type(patternsBox(), '{Enter}lib/**', { skipClick: true });
    release();
    await waitFor(() => expect(screen.getByTestId('permissions-save')).toBeEnabled());
    expect(patternsBox()).toHaveValue('**\nsrc/**\nlib/**');
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
    expect(h.gateway.backend.permissions.get('/p')).toMatchObject({ projectDefaults: { rules: [{ paths: ['**', 'src/**'] }] } });
    await user.keyboard('{Escape}');
    expect(screen.getByTestId('permissions-confirm-close')).toBeInTheDocument();
    await user.keyboard('{Control>}s{/Control}');
    await screen.findByTestId('permissions-saved');
    expect(spy).toHaveBeenCalledTimes(2);
    expect(h.gateway.backend.permissions.get('/p')).toMatchObject({ projectDefaults: { rules: [{ paths: ['**', 'src/**', 'lib/**'] }] } });
  });

  it('keeps the refused field marked and the raw text while the user fixes it', async () => {
    const h = await opened({ '/p': WRITE_PROJECT_ONLY });
    const user = userEvent.setup();
    await openProjectEditor();
    await user.type(patternsBox(), '{End}{Enter}../outside/**');
    await user.keyboard('{Control>}s{/Control}');
    await screen.findByTestId('permissions-save-error');
    expect(patternsBox()).toHaveClass('invalid');
    expect(patternsBox()).toHaveValue('**\n../outside/**');
    await user.type(patternsBox(), '{Backspace>13/}{Enter}');
    expect(patternsBox()).toHaveValue('**\n\n');
    expect(patternsBox()).toHaveClass('invalid'); // until the next save says otherwise
    await user.keyboard('{Control>}s{/Control}');
    await screen.findByTestId('permissions-saved');
    expect(patternsBox()).not.toHaveClass('invalid');
    expect(h.gateway.backend.permissions.get('/p')).toEqual(WRITE_PROJECT_ONLY);
  });

  it('keeps each box its own text when a rule above is removed', async () => {
    await opened({ '/p': WRITE_PROJECT_ONLY });
    const user = userEvent.setup();
    await openProjectEditor();
    await user.click(screen.getByTestId('permissions-add-rule'));
    await user.type(patternsBox(1), 'docs/**{Enter}');
    await user.click(within(screen.getAllByTestId('permission-rule')[0]).getByTestId('rule-remove'));
    expect(screen.getAllByTestId('permission-rule')).toHaveLength(1);
    expect(patternsBox(0)).toHaveValue('docs/**\n');
  });

  it("in an agent's own rules: typing counts, Escape asks, Ctrl+S saves the command patterns typed", async () => {
    const h = await opened({ '/p': WRITE_PROJECT_ONLY });
    const user = userEvent.setup();
    await openAgentEditor('a1');
    await user.click(screen.getByTestId('permissions-override'));
    await user.click(screen.getByTestId('permissions-save'));
    await screen.findByTestId('permissions-saved');
    await user.click(screen.getByTestId('permissions-add-rule'));
    await user.selectOptions(screen.getByTestId('rule-capability'), 'executeBash');
    await user.click(screen.getByTestId('permissions-save'));
    await screen.findByTestId('permissions-saved');

    await user.type(patternsBox(), 'git push *');
    expect(screen.getByTestId('permissions-save')).toBeEnabled();
    await user.keyboard('{Escape}');
    expect(screen.getByTestId('permissions-confirm-close')).toBeInTheDocument();
    await user.click(screen.getByText('Keep editing'));
    await user.type(patternsBox(), '{Enter}rm -rf *');
    await user.keyboard('{Control>}s{/Control}');
    await screen.findByTestId('permissions-saved');
    const saves = h.gateway.callsOf('permissions.save') as [string, PermissionsDoc][];
    expect(saves.at(-1)?.[1].agents).toEqual({ a1: { rules: [{ capability: 'executeBash', effect: 'allow', commands: ['git push *', 'rm -rf *'] }], fallback: 'deny' } });
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('permissions-editor')).not.toBeInTheDocument();
  });
});

describe('the cell header', () => {
  async function launch(agentId: string) {
    const user = userEvent.setup();
    await user.click(screen.getByTestId('launch-agent'));
    await user.click(screen.getAllByTestId('launch-agent-option').find((o) => o.dataset.agentId === agentId)!);
    return screen.findByTestId('cell-sandbox');
  }

  it('shows a confined agent as sandboxed, counts its denials, and opens its editor', async () => {
    const h = await opened({ '/p': WRITE_PROJECT_ONLY });
    const badge = await launch('a2');
    expect(badge).toHaveAttribute('data-state', 'enforced');
    expect(badge).toHaveTextContent('sandboxed');
    expect(badge.getAttribute('title')).toContain('Landlock ABI 7');
    h.gateway.backend.reportDenial('a2', { source: 'cli', tool: 'sh', target: '/side/x', message: 'EACCES' });
    expect(await screen.findByTestId('cell-denials')).toHaveTextContent('1');
    await fireEvent.click(badge);
    expect(screen.getByTestId('permissions-editor')).toHaveAttribute('data-scope', 'a2');
  });

  it('shows an agent without permissions as not sandboxed', async () => {
    await opened();
    const badge = await launch('a2');
    expect(badge).toHaveAttribute('data-state', 'off');
    expect(badge).toHaveTextContent('not sandboxed');
  });

  it('shows no OS sandbox on macOS', async () => {
    await opened({ '/p': WRITE_PROJECT_ONLY }, 'darwin');
    const badge = await launch('a2');
    expect(badge).toHaveAttribute('data-state', 'unsupported');
    expect(badge).toHaveTextContent('no OS sandbox');
  });
});

describe('a project under /tmp, which every CLI may write', () => {
  const SRC_ONLY: PermissionsDoc = {
    version: 1,
    projectDefaults: { rules: [{ capability: 'write', effect: 'allow', paths: ['src/**'] }], fallback: 'deny' },
  };

  async function openedInTmp() {
    const h = harness({
      projects: [project('/tmp/p', { agents: [agent('a2', 'Boxed', 'shell')] })],
      permissions: { '/tmp/p': SRC_ONLY },
    });
    await openProject(h, '/tmp/p');
    await settle();
    return h;
  }

  it('warns in the editor that its rules cannot be enforced, and the test box says the kernel allows x.txt', async () => {
    await openedInTmp();
    const editor = await openProjectEditor();
    const warning = within(editor).getByTestId('permissions-exposed');
    expect(warning).toHaveTextContent('Rules inside this project cannot be enforced by the OS');
    expect(warning).toHaveTextContent('the project lies in /tmp, which every CLI may write');
    expect(warning).toHaveTextContent('Move the project elsewhere, or accept that its file rules are advisory');
    const result = await test('write', 'x.txt');
    expect(result).toHaveAttribute('data-effect', 'deny');
    expect(result).toHaveAttribute('data-os-allowed', 'true');
    expect(within(result).getByTestId('permissions-test-os')).toHaveTextContent('granted: temporary files (/tmp)');
  });

  it('shows its confined agent as partly sandboxed, the reason in the tooltip', async () => {
    await openedInTmp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId('launch-agent'));
    await user.click(screen.getAllByTestId('launch-agent-option').find((o) => o.dataset.agentId === 'a2')!);
    const badge = await screen.findByTestId('cell-sandbox');
    expect(badge).toHaveAttribute('data-state', 'enforced');
    expect(badge).toHaveAttribute('data-partly', 'true');
    expect(badge).toHaveTextContent('partly sandboxed');
    expect(badge.getAttribute('title')).toContain('Not enforced by the OS: the project lies in /tmp');
  });

  it('gives no warning for a project outside every temp dir', async () => {
    await opened({ '/p': SRC_ONLY });
    const editor = await openProjectEditor();
    expect(within(editor).queryByTestId('permissions-exposed')).not.toBeInTheDocument();
    const result = await test('write', 'x.txt');
    expect(result).toHaveAttribute('data-os-allowed', 'false');
  });
});
