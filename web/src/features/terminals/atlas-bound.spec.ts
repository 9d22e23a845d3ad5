import { render } from '@testing-library/svelte';
import { beforeEach, describe, expect, it } from 'vitest';
import { WebglAddon } from '@xterm/addon-webgl';
import { harness, settle } from '../../test/harness';
import TerminalView from './TerminalView.svelte';

type FakeWebgl = WebglAddon & {
  disposed: boolean;
  clears: number;
  addPage(size: number): { width: number; height: number };
  removePage(page: object): void;
};
const addons = () => (WebglAddon as unknown as { instances: FakeWebgl[] }).instances;
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

function twoVisible() {
  const h = harness();
  for (const id of ['a', 'b']) {
    h.gateway.seedSession({ sessionId: id, root: '/p', scrollback: '$ ' });
    render(TerminalView, { props: { sessionId: id }, context: h.context });
  }
  h.terminals.setVisible('a', true);
  h.terminals.setVisible('b', true);
  return h;
}

describe('the WebGL glyph atlas bound (ADR 016)', () => {
  beforeEach(() => {
    addons().length = 0;
  });

  it('counts the shared atlas once, whichever terminal reports a page', async () => {
    const h = twoVisible();
    await settle();
    const [a, b] = addons();
    const page = a.addPage(1024);
    b.addPage(1024); // another page
    b.removePage(page);
    const { atlas, terminals } = h.terminals.stats();
    expect(terminals.map((t) => t.renderer)).toEqual(['webgl', 'webgl']);
    // two first pages (one per fake renderer; the real atlas reports one) + the 1024 one left
    expect(atlas.pages).toBe(3);
    expect(atlas.bytes).toBe(2 * 512 * 512 * 4 + 1024 * 1024 * 4);
    expect(atlas.clears + atlas.recycles).toBe(0);
  });

  it('clears the glyph cache every 8 MiB of new pages, keeping the renderers', async () => {
    const h = twoVisible();
    await settle();
    const [a, b] = addons();
    a.addPage(1024);
    a.addPage(1024);
    expect(h.terminals.stats().atlas.clears).toBe(0); // 8 MiB + the first pages: at the task's end
    await tick();
    expect(a.clears).toBe(1);
    expect(b.clears).toBe(1); // each renderer asks; the shared atlas clears once
    const { atlas } = h.terminals.stats();
    expect([atlas.clears, atlas.recycles]).toEqual([1, 0]);
    expect(a.disposed || b.disposed).toBe(false);
  });

  it('past 32 MiB of pages, replaces every renderer once; the new ones start from a small atlas', async () => {
    const h = twoVisible();
    await settle();
    const [a, b] = addons();
    a.addPage(4096);
    a.addPage(4096); // several pages in one task: still one recycle
    await tick();
    expect(a.disposed && b.disposed).toBe(true);
    const fresh = addons().slice(2);
    expect(fresh).toHaveLength(2);
    expect(fresh.some((x) => x.disposed)).toBe(false);
    const { atlas, terminals } = h.terminals.stats();
    expect(atlas.recycles).toBe(1);
    expect(atlas.bytes).toBeLessThanOrEqual(atlas.maxBytes);
    expect(terminals.map((t) => t.renderer)).toEqual(['webgl', 'webgl']);
  });

  it('a hidden terminal keeps the DOM renderer and is not brought back to WebGL by a recycle', async () => {
    const h = twoVisible();
    await settle();
    h.terminals.setVisible('b', false);
    addons()[0].addPage(4096);
    addons()[0].addPage(4096);
    await tick();
    const { terminals, atlas } = h.terminals.stats();
    expect(atlas.recycles).toBe(1);
    expect(terminals.find((t) => t.sessionId === 'b')?.renderer).toBe('dom');
    expect(terminals.find((t) => t.sessionId === 'a')?.renderer).toBe('webgl');
  });
});
