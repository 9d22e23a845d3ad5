import type { Capability, Denial, Effect, PermissionPolicy, PermissionRule, PermissionsDoc, SandboxState, SandboxStatus, SessionSandbox } from '../ports';

/**
 * Pure helpers of the permissions editor (docs/contracts.md §9): editing one policy of a
 * `permissions.json` draft — the project defaults (`scope` null) or an agent's override
 * (`scope` = its id) — without losing unknown keys, and reading the field the backend names
 * when it refuses a save.
 */

/** What "Pose permissions" starts from: no rule, and the CLI asks for everything else. */
export function newDocument(): PermissionsDoc {
  return { version: 1, projectDefaults: { rules: [], fallback: 'ask' } };
}

/** Whether a capability is about files (the OS can enforce it) or commands (advisory). */
export function isFileCapability(capability: Capability): boolean {
  return capability !== 'executeBash';
}

export const CAPABILITY_LABELS: Record<Capability, string> = {
  read: 'Read files',
  write: 'Write files',
  delete: 'Delete files',
  executeBash: 'Run commands',
};

export const EFFECT_LABELS: Record<Effect, string> = { allow: 'allow', ask: 'ask', deny: 'deny' };

/** The policy a scope edits: the project defaults, or the agent's override (`undefined`: none). */
export function policyOf(doc: PermissionsDoc, scope: string | null): PermissionPolicy | undefined {
  return scope === null ? doc.projectDefaults : doc.agents?.[scope];
}

/** `doc` with the scope's policy replaced (an agent's removed when `policy` is undefined). */
export function withPolicy(doc: PermissionsDoc, scope: string | null, policy: PermissionPolicy | undefined): PermissionsDoc {
  const next = structuredClone(doc);
  if (scope === null) {
    if (policy) next.projectDefaults = structuredClone(policy);
    return next;
  }
  const agents = { ...(next.agents ?? {}) };
  if (policy) agents[scope] = structuredClone(policy);
  else delete agents[scope];
  if (Object.keys(agents).length > 0) next.agents = agents;
  else delete next.agents;
  return next;
}

/** A new override for an agent: no rule of its own yet, the project's fallback. */
export function newOverride(doc: PermissionsDoc): PermissionPolicy {
  return { rules: [], fallback: doc.projectDefaults.fallback };
}

/** The rule's globs or command patterns (by its capability). */
export function patternsOf(rule: PermissionRule): string[] {
  return (isFileCapability(rule.capability) ? rule.paths : rule.commands) ?? [];
}

/** The patterns as the editor's text area shows them: one per line. */
export function patternsText(rule: PermissionRule): string {
  return patternsOf(rule).join('\n');
}

/** `rule` with the patterns of `text` (one per line, blanks dropped) under the key its capability takes. */
export function withPatterns(rule: PermissionRule, text: string): PermissionRule {
  const patterns = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  const next: PermissionRule = { ...rule };
  delete next.paths;
  delete next.commands;
  if (isFileCapability(rule.capability)) next.paths = patterns;
  else next.commands = patterns;
  return next;
}

/** `rule` for another capability: its patterns move to the key the new capability takes. */
export function withCapability(rule: PermissionRule, capability: Capability): PermissionRule {
  return withPatterns({ ...rule, capability }, patternsText(rule));
}

/** Where a field the backend named (`details.field`) lies in the scope's policy; `null` elsewhere. */
export type FieldTarget = { part: 'fallback' } | { part: 'rule'; rule: number; key: string | null };

export function fieldTarget(field: string, scope: string | null): FieldTarget | null {
  const base = scope === null ? 'projectDefaults' : `agents.${scope}`;
  if (field === `${base}.fallback`) return { part: 'fallback' };
  const prefix = `${base}.rules[`;
  if (!field.startsWith(prefix)) return null;
  const match = /^(\d+)\](?:\.(\w+))?/.exec(field.slice(prefix.length));
  if (!match) return null;
  return { part: 'rule', rule: Number(match[1]), key: match[2] ?? null };
}

/** The cell header's word for a sandbox state. */
export const SANDBOX_LABELS: Record<SandboxState, string> = {
  enforced: 'sandboxed',
  degraded: 'sandbox partial',
  off: 'not sandboxed',
  unsupported: 'no OS sandbox',
};

/** The cell header's word for a confined agent whose project the CLI's needs expose (it lies in /tmp). */
export const PARTLY_SANDBOXED = 'partly sandboxed';

/** Whether a session's sandbox confines the agent yet leaves its project open (`exposed`). */
export function partlySandboxed(sandbox: SessionSandbox): boolean {
  return !sandbox.refused && (sandbox.state === 'enforced' || sandbox.state === 'degraded') && (sandbox.exposed?.length ?? 0) > 0;
}

/** One line for a denial: `Write /p/x — EACCES: permission denied` (the tool, its target, why). */
export function denialLine(denial: Denial): string {
  const what = denial.target ? `${denial.tool} ${denial.target}` : denial.tool;
  return `${what} — ${denial.message}`;
}

/** The vendor CLIs whose own sandbox IdeA turns off when its Landlock sandbox confines the launch. */
export const VENDOR_SANDBOXES: Readonly<Record<string, string>> = {
  'claude-code': 'Claude Code',
  'codex-cli': 'Codex',
  'gemini-cli': 'Gemini CLI',
};

/** What the editor says of this machine's OS sandbox (the status `permissions.get` gives). */
export function machineLine(machine: SandboxStatus, platform: string): string {
  if (machine.state === 'enforced') return `This machine enforces file rules in the kernel (${machine.message}).`;
  if (machine.state === 'degraded') return `This machine enforces file rules only in part: ${machine.message}.`;
  const where = platform === 'darwin' ? 'macOS' : platform === 'win32' || platform === 'windows' ? 'Windows' : platform;
  return `No OS sandbox on ${where || 'this machine'} (a no-op here): ${machine.message}. The rules bind only through each CLI's own settings.`;
}

/**
 * Whether the editor says that IdeA's sandbox replaces the vendor's (bubblewrap, Seatbelt…):
 * the machine confines, and (an agent's editor) the agent runs a CLI that has one (`profileId`
 * undefined: the project's editor, said for every such CLI).
 */
export function replacesVendorSandbox(machine: SandboxStatus, profileId?: string): string | null {
  if (machine.state !== 'enforced' && machine.state !== 'degraded') return null;
  if (profileId !== undefined) {
    const vendor = VENDOR_SANDBOXES[profileId];
    return vendor
      ? `IdeA's sandbox replaces ${vendor}'s own sandbox (bubblewrap): it is turned off in ${vendor}'s settings, since it cannot start inside Landlock.`
      : null;
  }
  return `IdeA's sandbox replaces the vendor's bubblewrap: for Claude Code, Codex and Gemini CLI agents their own sandbox is turned off in their settings, since it cannot start inside Landlock.`;
}
