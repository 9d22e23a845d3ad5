import { SIGNALS, ZONES, type IpcMatrix } from '../ports';

/**
 * The access-matrix editor's rules (docs/contracts.md §8.3): a draft is "unrestricted" (no
 * matrix) or four fields, each `null` = any (the key is left out: it restricts nothing) or the
 * values chosen (an empty list restricts to nothing). Names match case-insensitively; a value
 * the editor does not offer (a name no agent has any more, `user`, an unknown signal) is shown
 * and kept, never dropped behind the user's back.
 */

export const IPC_FIELDS = ['receivesFrom', 'sendsTo', 'signals', 'zoneAccess'] as const;
export type IpcField = (typeof IPC_FIELDS)[number];

export const IPC_FIELD_LABELS: Record<IpcField, string> = {
  receivesFrom: 'Receives from',
  sendsTo: 'Sends to',
  signals: 'Signals',
  zoneAccess: 'Zone access',
};

/** The user, and anyone, as the matrix names them. */
export const HUMAN = 'human';
export const ANYONE = '*';

export interface IpcDraft {
  unrestricted: boolean;
  fields: Record<IpcField, string[] | null>;
}

/** The editor's starting point for a stored matrix (`null` = unrestricted). */
export function draftOf(matrix: IpcMatrix | null): IpcDraft {
  return {
    unrestricted: matrix === null,
    fields: {
      receivesFrom: matrix?.receivesFrom ? [...matrix.receivesFrom] : null,
      sendsTo: matrix?.sendsTo ? [...matrix.sendsTo] : null,
      signals: matrix?.signals ? [...matrix.signals] : null,
      zoneAccess: matrix?.zoneAccess ? [...matrix.zoneAccess] : null,
    },
  };
}

/** What Save sends: `null` when unrestricted or when every field is "any" (nothing declared). */
export function matrixOf(draft: IpcDraft): IpcMatrix | null {
  if (draft.unrestricted) return null;
  const matrix: IpcMatrix = {};
  for (const field of IPC_FIELDS) {
    const values = draft.fields[field];
    if (values !== null) matrix[field] = [...values];
  }
  return Object.keys(matrix).length > 0 ? matrix : null;
}

function same(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** Whether `values` holds `value` (case-insensitively). */
export function hasValue(values: readonly string[] | null, value: string): boolean {
  return values?.some((v) => same(v, value)) ?? false;
}

/** `values` with `value` added (once) or removed (every spelling of it). */
export function withValue(values: readonly string[], value: string, on: boolean): string[] {
  const rest = values.filter((v) => !same(v, value));
  return on ? [...rest, value] : rest;
}

/**
 * The choices a field offers: `human`, `*` and the other agents' names for the first two, the
 * seven signals, the three zones; then what `current` holds beyond them (kept, shown as is).
 */
export function choicesFor(field: IpcField, agentNames: readonly string[], self: string, current: readonly string[] | null): string[] {
  let offered: string[];
  if (field === 'signals') offered = [...SIGNALS];
  else if (field === 'zoneAccess') offered = [...ZONES];
  else offered = [HUMAN, ANYONE, ...agentNames.filter((n) => !same(n, self))];
  const extra = (current ?? []).filter((v) => !offered.some((o) => same(o, v)));
  return [...offered, ...extra];
}

/** How a choice reads: `*` is "anyone", `human` is "you (human)". */
export function choiceLabel(field: IpcField, value: string): string {
  if (field !== 'receivesFrom' && field !== 'sendsTo') return value;
  if (value === ANYONE) return 'anyone (*)';
  if (same(value, HUMAN)) return 'you (human)';
  return value;
}

const SHORT: Record<IpcField, string> = { receivesFrom: 'from', sendsTo: 'to', signals: 'signals', zoneAccess: 'zones' };

/** The card's one-liner of a declared matrix, e.g. "from: human · to: Alpha"; `null` for none. */
export function summarizeIpc(matrix: IpcMatrix | null): string | null {
  if (matrix === null) return null;
  const parts = IPC_FIELDS.filter((f) => matrix[f] !== undefined && matrix[f] !== null).map((f) => {
    const values = matrix[f]!;
    return `${SHORT[f]}: ${values.length > 0 ? values.join(', ') : f === 'signals' || f === 'zoneAccess' ? 'none' : 'nobody'}`;
  });
  return parts.length > 0 ? parts.join(' · ') : null;
}
