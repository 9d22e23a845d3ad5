import {
  CAPABILITIES,
  EFFECTS,
  GatewayError,
  type Capability,
  type Denial,
  type Effect,
  type PermissionPolicy,
  type PermissionRule,
  type PermissionsDoc,
  type PermissionTestResult,
  type SandboxStatus,
  type SessionSandbox,
} from '../ports';

/**
 * The mock backend's `permissions.*` (docs/contracts.md §9): one `permissions.json` per project
 * root, validated like the Python model (field named in `details.field`), decided like
 * `permission_rules.decide` (the strictest matching rule, else the fallback; an agent's policy
 * replaces the project's rules capability by capability), judged by a pretend Landlock kernel
 * (a file class is confined when its default is deny; allow globs grant their literal folder,
 * plus the run dir and the temp dirs every CLI needs, so a project under `/tmp` is `exposed`). Globs follow `.gitignore` well enough for tests: `**`, `*`, a
 * pattern without `/` matching at any depth, a trailing `/**`.
 */

const STRICTNESS: Record<Effect, number> = { allow: 0, ask: 1, deny: 2 };
const FILES: readonly Capability[] = ['read', 'write', 'delete'];
/** What every CLI's needs grant read/write/delete on (app/adapters/sandbox/needs.py). */
const TEMP_DIRS: readonly string[] = ['/tmp', '/var/tmp'];

/** `'corrupt'`: the file exists but does not parse (get and save answer CORRUPT_FILE). */
export type MockPermissionsSeed = PermissionsDoc | 'corrupt';

interface Ranked {
  rule: PermissionRule;
  origin: 'project' | 'agent';
  where: string;
}

export class MockPermissions {
  #docs = new Map<string, MockPermissionsSeed>();
  #denials = new Map<string, Denial[]>();
  readonly platform: string;

  constructor(seeds: Record<string, MockPermissionsSeed>, platform: string) {
    for (const [root, seed] of Object.entries(seeds)) this.#docs.set(root, structuredClone(seed));
    this.platform = platform;
  }

  /** What this machine can do for a plan confining files. */
  get machine(): SandboxStatus {
    return this.platform === 'linux'
      ? { state: 'enforced', message: 'Landlock ABI 7' }
      : { state: 'unsupported', message: `no OS sandbox on ${this.platform}: the rules bind only the CLI's own settings` };
  }

  get(root: string): PermissionsDoc | null {
    const doc = this.#docs.get(root);
    if (doc === 'corrupt') throw corrupt(root, 'projectDefaults.fallback: field required');
    return doc ?? null;
  }

  save(root: string, document: unknown): PermissionsDoc {
    if (this.#docs.get(root) === 'corrupt') {
      throw corrupt(root, 'projectDefaults.fallback: field required — IdeA does not overwrite a file it cannot read: fix or remove it by hand');
    }
    const doc = validate(document);
    this.#docs.set(root, structuredClone(doc));
    return doc;
  }

  test(root: string, agentId: string | null, capability: string, target: string, draft?: unknown): PermissionTestResult {
    if (!(CAPABILITIES as readonly string[]).includes(capability)) {
      throw new GatewayError('INVALID', `capability: unknown capability '${capability}'`, { field: 'capability' });
    }
    if (!target.trim()) throw new GatewayError('INVALID', 'target: give a path or a command to test', { field: 'target' });
    const doc = draft !== undefined ? validate(draft) : this.get(root);
    if (!doc) throw new GatewayError('INVALID', 'no permissions are posed in this project', { field: 'document' });
    const cap = capability as Capability;
    const { rules, fallback, fallbackOrigin } = effective(doc, agentId);
    const mine = rules.filter((r) => r.rule.capability === cap);
    const decision = decide(mine, fallback, fallbackOrigin, root, cap, target);
    const sandbox = this.#status(mine, fallback, cap);
    const exposed = sandbox.state === 'off' ? [] : this.exposed(root);
    return { ...decision, os: this.#os(mine, fallback, root, agentId, cap, target, sandbox), sandbox, exposed };
  }

  /** Why the OS cannot enforce file rules in `root`: it lies in a temp dir every CLI may write. */
  exposed(root: string): string[] {
    const temp = TEMP_DIRS.find((t) => root === t || root.startsWith(`${t}/`));
    return temp
      ? [`the project lies in ${temp}, which every CLI may write, delete (temporary files): the OS cannot enforce write, delete rules inside this project — move the project out of ${temp}, or accept that these rules are advisory`]
      : [];
  }

  /** The sandbox an agent's launch gets (for the session DTO). */
  sessionSandbox(root: string, agentId: string): SessionSandbox {
    let doc: PermissionsDoc | null;
    try {
      doc = this.get(root);
    } catch {
      doc = null;
    }
    if (!doc) return { state: 'off', message: 'no permissions are posed', notes: [], refused: false };
    const { rules, fallback } = effective(doc, agentId);
    const confined = FILES.some((cap) => confines(rules.filter((r) => r.rule.capability === cap), fallback));
    if (!confined) return { state: 'off', message: 'the policy restricts no file access class', notes: [], refused: false };
    return { ...this.machine, notes: ['executeBash: command rules are advisory'], refused: false, exposed: this.exposed(root) };
  }

  denials(agentId: string): Denial[] {
    return [...(this.#denials.get(agentId) ?? [])].reverse();
  }

  addDenial(agentId: string, denial: Denial): void {
    this.#denials.set(agentId, [...(this.#denials.get(agentId) ?? []), denial]);
  }

  #status(rules: Ranked[], fallback: Effect, cap: Capability): SandboxStatus {
    if (!FILES.includes(cap) || !confines(rules, fallback)) return { state: 'off', message: 'the policy restricts no file access class' };
    return this.machine;
  }

  #os(rules: Ranked[], fallback: Effect, root: string, agentId: string | null, cap: Capability, target: string, status: SandboxStatus) {
    if (!FILES.includes(cap)) {
      return { enforced: false, allowed: null, message: 'advisory: commands are never enforced by the OS — only the CLI’s own settings can refuse them' };
    }
    if (!confines(rules, fallback)) {
      return { enforced: false, allowed: null, message: `not enforced by the OS: no rule confines ${cap} (its default is not deny), so the CLI's settings decide` };
    }
    if (status.state !== 'enforced' && status.state !== 'degraded') {
      return { enforced: false, allowed: null, message: `not enforced on this machine: ${status.message}` };
    }
    const path = absolute(root, target);
    // every CLI's needs grant the temp dirs (the project defaults are judged with the shell's)
    const grants = [`${root}/.ideai/run/${agentId ?? '_project'}`, ...TEMP_DIRS];
    for (const r of rules) if (r.rule.effect !== 'deny') for (const p of r.rule.paths ?? []) grants.push(prefixOf(root, p));
    const covering = grants.filter((g) => path === g || path.startsWith(`${g.replace(/\/$/, '')}/`));
    const grant = covering.sort((a, b) => b.length - a.length)[0];
    const holds = grant !== undefined && TEMP_DIRS.includes(grant) && root.startsWith(`${grant}/`);
    return grant
      ? {
          enforced: true,
          allowed: true,
          message: `the kernel allows it — granted: ${TEMP_DIRS.includes(grant) ? 'temporary files' : 'a rule'} (${grant})${holds ? ` — the project lies in it, so the OS cannot enforce this project's ${cap} rules (move the project, or accept they are advisory)` : ''}`,
        }
      : { enforced: true, allowed: false, message: `the kernel refuses it (EACCES): outside every ${cap} grant` };
  }
}

function corrupt(root: string, problem: string): GatewayError {
  const file = `${root}/.ideai/permissions.json`;
  return new GatewayError('CORRUPT_FILE', `${file}: ${problem}`, { file, field: 'projectDefaults.fallback' });
}

function invalid(field: string, problem: string): GatewayError {
  return new GatewayError('INVALID', `${field}: ${problem}`, { field });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The checks of `app/core/domain/permissions.py`, with the same field paths. */
export function validate(value: unknown): PermissionsDoc {
  if (!isRecord(value)) throw invalid('', 'input should be an object');
  if (!isRecord(value.projectDefaults)) throw invalid('projectDefaults', 'field required');
  checkPolicy(value.projectDefaults, 'projectDefaults');
  if (value.agents !== undefined && value.agents !== null) {
    if (!isRecord(value.agents)) throw invalid('agents', 'input should be an object');
    for (const [id, policy] of Object.entries(value.agents)) {
      if (!isRecord(policy)) throw invalid(`agents.${id}`, 'input should be an object');
      checkPolicy(policy, `agents.${id}`);
    }
  }
  return structuredClone({ version: 1, ...value }) as PermissionsDoc;
}

function checkPolicy(policy: Record<string, unknown>, where: string): void {
  if (!(EFFECTS as readonly unknown[]).includes(policy.fallback)) {
    throw invalid(`${where}.fallback`, policy.fallback === undefined ? 'field required' : "input should be 'allow', 'ask' or 'deny'");
  }
  const rules = policy.rules ?? [];
  if (!Array.isArray(rules)) throw invalid(`${where}.rules`, 'input should be an array');
  rules.forEach((rule: unknown, i) => {
    const at = `${where}.rules[${i}]`;
    if (!isRecord(rule)) throw invalid(at, 'input should be an object');
    if (!(CAPABILITIES as readonly unknown[]).includes(rule.capability)) {
      throw invalid(`${at}.capability`, "input should be 'read', 'write', 'delete' or 'executeBash'");
    }
    if (!(EFFECTS as readonly unknown[]).includes(rule.effect)) throw invalid(`${at}.effect`, "input should be 'allow', 'ask' or 'deny'");
    const paths = (rule.paths ?? []) as unknown[];
    const commands = (rule.commands ?? []) as unknown[];
    if (rule.capability === 'executeBash' && paths.length > 0) throw invalid(`${at}.paths`, 'executeBash rules take commands, not paths');
    if (rule.capability !== 'executeBash' && commands.length > 0) {
      throw invalid(`${at}.commands`, `only executeBash rules take commands (${String(rule.capability)} rules take paths)`);
    }
    paths.forEach((p, j) => {
      const problem = globProblem(p);
      if (problem) throw invalid(`${at}.paths[${j}]`, problem);
    });
    commands.forEach((c, j) => {
      if (typeof c !== 'string' || !c.trim()) throw invalid(`${at}.commands[${j}]`, 'a command pattern cannot be empty');
    });
  });
}

function globProblem(pattern: unknown): string | null {
  if (typeof pattern !== 'string' || !pattern.trim()) return 'a path pattern cannot be empty';
  if (pattern.startsWith('!')) return `'${pattern}': negation is not supported (write a rule with another effect instead)`;
  if (pattern.split('/').includes('..')) return `'${pattern}': '..' is not allowed (patterns are relative to the project root)`;
  if (pattern.startsWith('~')) return `'${pattern}': patterns are relative to the project root, not to the home folder`;
  return null;
}

function effective(doc: PermissionsDoc, agentId: string | null): { rules: Ranked[]; fallback: Effect; fallbackOrigin: 'project' | 'agent' } {
  const own = agentId ? doc.agents?.[agentId] : undefined;
  const tag = (policy: PermissionPolicy, origin: 'project' | 'agent', base: string): Ranked[] =>
    policy.rules.map((rule, i) => ({ rule, origin, where: `${base}.rules[${i}]` }));
  const project = tag(doc.projectDefaults, 'project', 'projectDefaults');
  const agent = own ? tag(own, 'agent', `agents.${agentId}`) : [];
  const overridden = new Set(agent.map((r) => r.rule.capability));
  const rules = CAPABILITIES.flatMap((cap) => (overridden.has(cap) ? agent : project).filter((r) => r.rule.capability === cap));
  return own ? { rules, fallback: own.fallback, fallbackOrigin: 'agent' } : { rules, fallback: doc.projectDefaults.fallback, fallbackOrigin: 'project' };
}

function patternsOf(rule: PermissionRule): string[] {
  return (rule.capability === 'executeBash' ? rule.commands : rule.paths) ?? [];
}

/** A class is confined when its default (the strictest whole-capability rule, else the fallback) is deny and a rule speaks of it. */
function confines(rules: Ranked[], fallback: Effect): boolean {
  if (rules.length === 0) return false;
  const whole = rules.filter((r) => patternsOf(r.rule).length === 0);
  const dflt = whole.length > 0 ? whole.reduce((a, b) => (STRICTNESS[b.rule.effect] > STRICTNESS[a.rule.effect] ? b : a)).rule.effect : fallback;
  return dflt === 'deny';
}

function decide(rules: Ranked[], fallback: Effect, fallbackOrigin: 'project' | 'agent', root: string, cap: Capability, target: string) {
  const rel = relative(root, target);
  const matching = rules.filter((r) => {
    const patterns = patternsOf(r.rule);
    if (patterns.length === 0) return true;
    if (cap === 'executeBash') return patterns.some((p) => globToRegex(p.endsWith(' *') ? `${p.slice(0, -2)}*` : p, true).test(target.trim()));
    return rel !== null && patterns.some((p) => matchesPath(p, rel));
  });
  if (matching.length === 0) {
    const whose = fallbackOrigin === 'project' ? "the project's" : "the agent's";
    return { effect: fallback, explanation: `${fallback} — no rule matches: ${whose} fallback`, origin: fallbackOrigin, rule: null };
  }
  const best = matching.reduce((a, b) => (STRICTNESS[b.rule.effect] > STRICTNESS[a.rule.effect] ? b : a));
  const patterns = patternsOf(best.rule);
  const what = patterns.length > 0 ? patterns.join(', ') : 'everything';
  return {
    effect: best.rule.effect,
    explanation: `${best.rule.effect} — ${cap} ${best.rule.effect} ${what} (${best.origin} rule ${best.where})`,
    origin: best.origin,
    rule: { where: best.where, origin: best.origin, capability: cap, effect: best.rule.effect, patterns: [...patterns] },
  };
}

function absolute(root: string, target: string): string {
  return target.startsWith('/') ? target : `${root}/${target}`.replace(/\/\.?$/, '');
}

function relative(root: string, target: string): string | null {
  const path = absolute(root, target);
  if (path === root) return '.';
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : null;
}

function prefixOf(root: string, pattern: string): string {
  const body = pattern.replace(/\/+$/, '');
  if (!body.includes('/')) return root;
  const literal: string[] = [];
  for (const part of body.replace(/^\//, '').split('/')) {
    if (/[*?[\\]/.test(part)) break;
    literal.push(part);
  }
  return literal.length > 0 ? `${root}/${literal.join('/')}` : root;
}

function matchesPath(pattern: string, rel: string): boolean {
  const anchored = pattern.replace(/\/+$/, '').includes('/');
  const body = pattern.replace(/^\//, '').replace(/\/$/, '/**');
  const regex = globToRegex(anchored ? body : `**/${body}`, false);
  return regex.test(rel) || regex.test(`${rel}/`);
}

function globToRegex(glob: string, anySlash: boolean): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      i++;
      if (glob[i + 1] === '/') {
        out += '(.*/)?';
        i++;
      } else out += '.*';
    } else if (c === '*') out += anySlash ? '.*' : '[^/]*';
    else if (c === '?') out += anySlash ? '.' : '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}(/.*)?$`);
}
