import { describe, expect, it } from 'vitest';
import type { LayoutDoc } from '../ports';
import { activeRoot, findLeaf, leafWithSession, leaves } from './layout-tree';

const doc: LayoutDoc = {
  version: 1,
  activeId: 'L1',
  layouts: [
    {
      id: 'L1',
      name: 'Default',
      kind: 'terminal',
      tree: {
        root: {
          type: 'split',
          node: {
            id: 'n1',
            direction: 'row',
            children: [
              { node: { type: 'leaf', node: { id: 'n2', session: 's1', agent: 'a1' } }, weight: 1 },
              {
                node: {
                  type: 'grid',
                  node: {
                    id: 'g1',
                    colWeights: [1],
                    rowWeights: [1, 1],
                    cells: [
                      { node: { type: 'leaf', node: { id: 'n4' } }, row: 1, col: 0, rowSpan: 1, colSpan: 1 },
                      { node: { type: 'leaf', node: { id: 'n3' } }, row: 0, col: 0, rowSpan: 1, colSpan: 1 },
                    ],
                  },
                },
                weight: 1,
              },
            ],
          },
        },
      },
    },
  ],
};

describe('layout tree', () => {
  it('finds the active root', () => {
    expect(activeRoot(doc)?.type).toBe('split');
    expect(activeRoot(null)).toBeNull();
  });

  it('lists leaves in reading order', () => {
    expect(leaves(activeRoot(doc)).map((l) => l.id)).toEqual(['n2', 'n3', 'n4']);
  });

  it('finds leaves by id and by session', () => {
    expect(findLeaf(activeRoot(doc), 'n4')?.id).toBe('n4');
    expect(leafWithSession(activeRoot(doc), 's1')?.id).toBe('n2');
    expect(leafWithSession(activeRoot(doc), 'nope')).toBeNull();
  });
});
