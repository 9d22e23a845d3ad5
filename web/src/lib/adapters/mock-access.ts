import { GatewayError, SIGNALS, ZONES, type IpcMatrix } from '../ports';

/**
 * The mock backend's access-matrix rules, after `app/core/domain/access.py` (docs/contracts.md
 * §8.3): a key left out restricts nothing; names are case-insensitive, `human` (or `user`) is
 * the user, `*` anyone. Good enough for a fake: zones are not checked on delegation.
 */

const KEYS = ['receivesFrom', 'sendsTo', 'signals', 'zoneAccess'] as const;

/** The matrix as the backend stores it: only declared keys; none declared → `null`. */
export function normalizeMatrix(matrix: IpcMatrix | null): IpcMatrix | null {
  if (matrix === null) return null;
  const stored: IpcMatrix = {};
  for (const key of KEYS) {
    const value = matrix[key];
    if (value === undefined || value === null) continue;
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
      throw new GatewayError('INVALID', `ipc.${key}: expected a list of names`, { field: key });
    }
    stored[key] = [...value];
  }
  for (const signal of stored.signals ?? []) {
    if (!(SIGNALS as readonly string[]).includes(signal)) {
      throw new GatewayError('INVALID', `ipc.signals: unknown signal '${signal}' (one of ${SIGNALS.join(', ')})`, { field: 'signals' });
    }
  }
  for (const zone of stored.zoneAccess ?? []) {
    if (!(ZONES as readonly string[]).includes(zone)) {
      throw new GatewayError('INVALID', `ipc.zone_access: unknown zone '${zone}' (kernel, project or personal)`, { field: 'zoneAccess' });
    }
  }
  return Object.keys(stored).length > 0 ? stored : null;
}

function includes(declared: readonly string[] | undefined, name: string): boolean {
  if (declared === undefined) return true;
  const allowed = declared.map((n) => n.trim().toLowerCase());
  const wanted = name.toLowerCase();
  return allowed.includes('*') || allowed.includes(wanted) || (wanted === 'human' && allowed.includes('user'));
}

/**
 * Why a packet `signal` from `sender` to `receiver` (names; `human` for the user) is refused,
 * or `null` when both matrices allow it. The message names the rule, as the backend's does.
 */
export function forbiddenBy(
  sender: { name: string; matrix: IpcMatrix | null },
  receiver: { name: string; matrix: IpcMatrix | null },
  signal: string,
): string | null {
  const refuse = (owner: string, key: string, declared: readonly string[], what: string) =>
    `${owner}'s ipc.${key} [${declared.join(', ') || 'nothing'}] does not include ${what}`;
  const s = sender.matrix;
  const r = receiver.matrix;
  if (s?.sendsTo && !includes(s.sendsTo, receiver.name)) return refuse(sender.name, 'sends_to', s.sendsTo, receiver.name);
  if (s?.signals && !s.signals.includes(signal)) return refuse(sender.name, 'signals', s.signals, signal);
  if (r?.receivesFrom && !includes(r.receivesFrom, sender.name)) return refuse(receiver.name, 'receives_from', r.receivesFrom, sender.name);
  if (r?.signals && !r.signals.includes(signal)) return refuse(receiver.name, 'signals', r.signals, signal);
  return null;
}
