import { leaves } from '../domain/layout-tree';
import {
  GatewayError,
  type GridCell,
  type GridNode,
  type Layout,
  type LayoutDoc,
  type LayoutNode,
  type LayoutOp,
  type LayoutPreset,
  type LeafNode,
  type NamedLayoutOp,
} from '../ports';

/**
 * The mock backend's grid ops, presets, balance and named layouts (contracts §3), close enough
 * to `app/core/domain/layout_grid.py`, `layout_presets.py` and `named_layouts.py` for component
 * tests. The real rules (minimum size, invariants) are the Python core's.
 */

const leafNode = (node: LeafNode): LayoutNode => ({ type: 'leaf', node });

function mapNodes(node: LayoutNode, change: (n: LayoutNode) => LayoutNode | null): LayoutNode {
  const replaced = change(node);
  if (replaced) return replaced;
  if (node.type === 'split') {
    return { ...node, node: { ...node.node, children: node.node.children.map((c) => ({ ...c, node: mapNodes(c.node, change) })) } };
  }
  if (node.type === 'grid') {
    return { ...node, node: { ...node.node, cells: node.node.cells.map((c) => ({ ...c, node: mapNodes(c.node, change) })) } };
  }
  return node;
}

const byPlace = (a: GridCell, b: GridCell) => a.row - b.row || a.col - b.col;
const idOf = (n: LayoutNode) => n.node.id;
const shows = (n: LayoutNode) => n.type === 'leaf' && !!(n.node.session || n.node.agent);

function keeper(nodes: LayoutNode[]): LayoutNode {
  return nodes.find(shows) ?? nodes[0];
}

/** Merge neighbouring leaves of one grid (a rectangle) or one split (consecutive). */
export function mergeCells(root: LayoutNode, nodeIds: string[]): LayoutNode {
  const wanted = new Set(nodeIds);
  if (wanted.size < 2) throw new GatewayError('INVALID', 'merge needs at least two cells');
  let done = false;
  const out = mapNodes(root, (node) => {
    if (node.type === 'split') {
      const at = node.node.children.map((c, i) => (wanted.has(idOf(c.node)) ? i : -1)).filter((i) => i >= 0);
      if (at.length !== wanted.size) return null;
      if (at[at.length - 1] - at[0] !== at.length - 1) throw new GatewayError('INVALID', 'the cells to merge must be next to each other');
      const chosen = node.node.children.slice(at[0], at[at.length - 1] + 1);
      const merged = { node: keeper(chosen.map((c) => c.node)), weight: chosen.reduce((w, c) => w + c.weight, 0) };
      const children = [...node.node.children.slice(0, at[0]), merged, ...node.node.children.slice(at[at.length - 1] + 1)];
      done = true;
      return children.length === 1 ? merged.node : { ...node, node: { ...node.node, children } };
    }
    if (node.type === 'grid') {
      const chosen = node.node.cells.filter((c) => wanted.has(idOf(c.node))).sort(byPlace);
      if (chosen.length !== wanted.size) return null;
      const top = Math.min(...chosen.map((c) => c.row));
      const left = Math.min(...chosen.map((c) => c.col));
      const bottom = Math.max(...chosen.map((c) => c.row + c.rowSpan));
      const right = Math.max(...chosen.map((c) => c.col + c.colSpan));
      const area = chosen.reduce((n, c) => n + c.rowSpan * c.colSpan, 0);
      if (area !== (bottom - top) * (right - left)) throw new GatewayError('INVALID', 'the cells to merge must fill a rectangle');
      const merged: GridCell = { node: keeper(chosen.map((c) => c.node)), row: top, col: left, rowSpan: bottom - top, colSpan: right - left };
      done = true;
      if (merged.rowSpan === node.node.rowWeights.length && merged.colSpan === node.node.colWeights.length) return merged.node;
      const cells = [...node.node.cells.filter((c) => !wanted.has(idOf(c.node))), merged].sort(byPlace);
      return { ...node, node: { ...node.node, cells } };
    }
    return null;
  });
  if (!done) throw new GatewayError('INVALID', 'only neighbouring cells of one grid or one split can be merged');
  return out;
}

/** Split the merged grid cell holding `nodeId` back into one cell per track. */
export function unmergeCell(root: LayoutNode, nodeId: string, newId: () => string): LayoutNode {
  let done = false;
  const out = mapNodes(root, (node) => {
    if (node.type !== 'grid') return null;
    const cell = node.node.cells.find((c) => idOf(c.node) === nodeId);
    if (!cell) return null;
    if (cell.rowSpan === 1 && cell.colSpan === 1) throw new GatewayError('INVALID', 'this cell is not merged');
    const pieces: GridCell[] = [{ ...cell, rowSpan: 1, colSpan: 1 }];
    for (let r = cell.row; r < cell.row + cell.rowSpan; r++) {
      for (let c = cell.col; c < cell.col + cell.colSpan; c++) {
        if (r !== cell.row || c !== cell.col) pieces.push({ node: leafNode({ id: newId() }), row: r, col: c, rowSpan: 1, colSpan: 1 });
      }
    }
    done = true;
    const cells = [...node.node.cells.filter((c) => c !== cell), ...pieces].sort(byPlace);
    return { ...node, node: { ...node.node, cells } };
  });
  if (!done) throw new GatewayError('INVALID', 'this cell is not merged');
  return out;
}

const SHAPES: Record<LayoutPreset, { cols: number; rows: number; spans: [number, number, number, number][] }> = {
  '2x2': { cols: 2, rows: 2, spans: [[0, 0, 1, 1], [0, 1, 1, 1], [1, 0, 1, 1], [1, 1, 1, 1]] },
  '1+2': { cols: 2, rows: 2, spans: [[0, 0, 2, 1], [0, 1, 1, 1], [1, 1, 1, 1]] },
  '3-columns': { cols: 3, rows: 1, spans: [[0, 0, 1, 1], [0, 1, 1, 1], [0, 2, 1, 1]] },
};

/** The preset grid filled with the tree's leaves (those showing something first). */
export function applyPreset(root: LayoutNode, preset: LayoutPreset, newId: () => string): LayoutNode {
  const shape = SHAPES[preset];
  const old = leaves(root);
  const order = [...old.filter((l) => l.session || l.agent), ...old.filter((l) => !(l.session || l.agent))];
  const cells = shape.spans.map(([row, col, rowSpan, colSpan], i) => ({
    node: leafNode(order[i] ?? { id: newId() }),
    row,
    col,
    rowSpan,
    colSpan,
  }));
  const grid: GridNode = {
    id: root.type === 'grid' ? root.node.id : newId(),
    colWeights: Array.from({ length: shape.cols }, () => 1),
    rowWeights: Array.from({ length: shape.rows }, () => 1),
    cells,
  };
  return { type: 'grid', node: grid };
}

/** Equal weights in every split and grid of the tree. */
export function balance(root: LayoutNode): LayoutNode {
  if (root.type === 'split') {
    return { ...root, node: { ...root.node, children: root.node.children.map((c) => ({ node: balance(c.node), weight: 1 })) } };
  }
  if (root.type === 'grid') {
    const g = root.node;
    return { ...root, node: { ...g, colWeights: g.colWeights.map(() => 1), rowWeights: g.rowWeights.map(() => 1), cells: g.cells.map((c) => ({ ...c, node: balance(c.node) })) } };
  }
  return root;
}

/** Swap what two leaves show. */
export function moveContents(root: LayoutNode, from: string, to: string): LayoutNode {
  const all = leaves(root);
  const a = all.find((l) => l.id === from);
  const b = all.find((l) => l.id === to);
  if (!a || !b) throw new GatewayError('NOT_FOUND', `no layout node '${a ? to : from}'`);
  return mapNodes(root, (n) => {
    if (n.type !== 'leaf') return null;
    if (n.node.id === from) return leafNode({ ...b, id: from });
    if (n.node.id === to) return leafNode({ ...a, id: to });
    return null;
  });
}

function freshCopy(node: LayoutNode, newId: () => string): LayoutNode {
  if (node.type === 'leaf') return leafNode({ id: newId() });
  if (node.type === 'split') {
    return { ...node, node: { ...node.node, id: newId(), children: node.node.children.map((c) => ({ ...c, node: freshCopy(c.node, newId) })) } };
  }
  return { ...node, node: { ...node.node, id: newId(), cells: node.node.cells.map((c) => ({ ...c, node: freshCopy(c.node, newId) })) } };
}

/** As the backend: a refused name is said as the dialog names its field, its path in the op in the details. */
const NAME_FIELD = { field: 'op.name', label: 'Layout name' };

function cleanName(doc: LayoutDoc, name: string, keepId?: string): string {
  const cleaned = name.split(/\s+/).filter(Boolean).join(' ');
  if (!cleaned) throw new GatewayError('INVALID', 'Layout name: a layout needs a name', { ...NAME_FIELD });
  if (doc.layouts.some((l) => l.id !== keepId && l.name.toLowerCase() === cleaned.toLowerCase())) {
    throw new GatewayError('INVALID', `Layout name: a layout named '${cleaned}' already exists`, { ...NAME_FIELD });
  }
  return cleaned;
}

function find(doc: LayoutDoc, layoutId: string): Layout {
  const found = doc.layouts.find((l) => l.id === layoutId);
  if (!found) throw new GatewayError('NOT_FOUND', `no layout '${layoutId}'`, { layoutId });
  return found;
}

/** Applies a named-layout op to the document (see `named_layouts.py`). */
export function applyNamedOp(doc: LayoutDoc, op: NamedLayoutOp, newId: () => string): LayoutDoc {
  switch (op.kind) {
    case 'createLayout': {
      const id = newId();
      const first: LayoutNode = leafNode({ id: newId() });
      const root = op.preset ? applyPreset(first, op.preset, newId) : first;
      const layout: Layout = { id, name: cleanName(doc, op.name), kind: 'terminal', tree: { root } };
      return { ...doc, layouts: [...doc.layouts, layout], activeId: id };
    }
    case 'renameLayout': {
      find(doc, op.layoutId);
      const name = cleanName(doc, op.name, op.layoutId);
      return { ...doc, layouts: doc.layouts.map((l) => (l.id === op.layoutId ? { ...l, name } : l)) };
    }
    case 'duplicateLayout': {
      const source = find(doc, op.layoutId);
      let name = op.name ?? `${source.name} copy`;
      for (let n = 2; !op.name && doc.layouts.some((l) => l.name.toLowerCase() === name.toLowerCase()); n++) name = `${source.name} copy ${n}`;
      const copy: Layout = { ...source, id: newId(), name: cleanName(doc, name), tree: { ...source.tree, root: freshCopy(source.tree.root, newId) } };
      const at = doc.layouts.indexOf(source) + 1;
      return { ...doc, layouts: [...doc.layouts.slice(0, at), copy, ...doc.layouts.slice(at)], activeId: copy.id };
    }
    case 'deleteLayout': {
      const layout = find(doc, op.layoutId);
      if (doc.layouts.length === 1) throw new GatewayError('INVALID', 'the last layout of a project cannot be deleted');
      const at = doc.layouts.indexOf(layout);
      const rest = doc.layouts.filter((l) => l !== layout);
      const activeId = doc.activeId !== op.layoutId ? doc.activeId : rest[Math.max(0, at - 1)].id;
      return { ...doc, layouts: rest, activeId };
    }
    case 'switchLayout':
      find(doc, op.layoutId);
      return { ...doc, activeId: op.layoutId };
  }
}

const NAMED_OPS = new Set(['createLayout', 'renameLayout', 'duplicateLayout', 'deleteLayout', 'switchLayout']);

/** Whether `op` manages the named layouts (rather than editing the active tree). */
export function isNamedOp(op: LayoutOp): op is NamedLayoutOp {
  return NAMED_OPS.has(op.kind);
}

/** The tree after a grid op (merge, unmerge, preset, balance, move); null for other ops. */
export function applyGridOp(root: LayoutNode, op: LayoutOp, newId: () => string): LayoutNode | null {
  switch (op.kind) {
    case 'merge':
      return mergeCells(root, op.nodeIds);
    case 'unmerge':
      return unmergeCell(root, op.nodeId, newId);
    case 'preset':
      return applyPreset(root, op.preset, newId);
    case 'balance':
      return balance(root);
    case 'move':
      return moveContents(root, op.nodeId, op.toNodeId);
    case 'resize': {
      if ('weights' in op) return null;
      const { colWeights, rowWeights } = op;
      return mapNodes(root, (n) =>
        n.type === 'grid' && n.node.id === op.nodeId
          ? { ...n, node: { ...n.node, colWeights: colWeights ?? n.node.colWeights, rowWeights: rowWeights ?? n.node.rowWeights } }
          : null,
      );
    }
    default:
      return null;
  }
}
