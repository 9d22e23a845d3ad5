import type { LayoutDoc, LayoutNode, LeafNode } from '../ports';

/** The active layout's root node, or `null` when the document has no usable layout. */
export function activeRoot(doc: LayoutDoc | null | undefined): LayoutNode | null {
  if (!doc || !Array.isArray(doc.layouts) || doc.layouts.length === 0) return null;
  const layout = doc.layouts.find((l) => l.id === doc.activeId) ?? doc.layouts[0];
  return layout?.tree?.root ?? null;
}

/** Every leaf of the tree, in reading order (left→right, top→bottom). */
export function leaves(root: LayoutNode | null): LeafNode[] {
  if (!root) return [];
  switch (root.type) {
    case 'leaf':
      return [root.node];
    case 'split':
      return root.node.children.flatMap((c) => leaves(c.node));
    case 'grid':
      return [...root.node.cells]
        .sort((a, b) => a.row - b.row || a.col - b.col)
        .flatMap((c) => leaves(c.node));
  }
}

export function findLeaf(root: LayoutNode | null, nodeId: string): LeafNode | null {
  return leaves(root).find((leaf) => leaf.id === nodeId) ?? null;
}

/** The leaf that hosts `sessionId`, if any. */
export function leafWithSession(root: LayoutNode | null, sessionId: string): LeafNode | null {
  return leaves(root).find((leaf) => leaf.session === sessionId) ?? null;
}
