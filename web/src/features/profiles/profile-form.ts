import type { Profile, StructuredProtocol } from '../../lib/ports';

/**
 * The profile editor's text fields and the profile they stand for (pure). Lists are one item a
 * line, the environment `KEY=VALUE` a line, the submit sequence with `\r`, `\n`, `\t`, `\e` and
 * `\\` escapes (what the CLI receives is the unescaped text). An empty optional field is left out
 * of the profile; keys the form does not show are kept as they are.
 */
export interface ProfileForm {
  name: string;
  command: string;
  args: string;
  env: string;
  strategy: string;
  /** Convention file name (e.g. `CLAUDE.md`), or the context file's name for flag/env. */
  target: string;
  flag: string;
  variable: string;
  cwd: string;
  projectAccess: string;
  promptReady: string;
  /** One text a line: screens of the CLI that wait for its human. */
  waitingScreens: string;
  submit: string;
  structured: '' | StructuredProtocol;
  structuredCommand: string;
  structuredArgs: string;
  resumeFlag: string;
  resumeArgs: string;
}

export const STRATEGIES = [
  { value: 'conventionFile', label: 'Convention file in its working directory' },
  { value: 'flag', label: 'A flag taking the context file' },
  { value: 'env', label: 'An environment variable naming the context file' },
  { value: 'stdin', label: 'Typed on its input' },
] as const;

export const PROTOCOLS: { value: '' | StructuredProtocol; label: string }[] = [
  { value: '', label: 'None (terminal only)' },
  { value: 'acp', label: 'ACP (Agent Client Protocol)' },
  { value: 'claude-stream-json', label: 'Claude Code stream-json' },
  { value: 'codex-exec', label: 'Codex exec --json' },
];

function lines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
}

/** The escapes of the submit keys and the key each stands for. */
const KEY_ESCAPES: Readonly<Record<string, string>> = { r: '\r', n: '\n', t: '\t', e: '\x1b', '\\': '\\' };
/** Each escape (`\` and the character after it), read left to right as `unescapeKeys` reads them. */
const ESCAPE = /\\(.)/g;

/** `\r` → carriage return, etc.; an unknown escape is kept as typed. */
export function unescapeKeys(text: string): string {
  return text.replace(ESCAPE, (whole, c: string) => KEY_ESCAPES[c] ?? whole);
}

/** The escapes of `text` that name no key (`\q`), each once, in order: `unescapeKeys` keeps them as typed. */
export function unknownEscapes(text: string): string[] {
  return [...new Set([...text.matchAll(ESCAPE)].filter((m) => !(m[1] in KEY_ESCAPES)).map((m) => m[0]))];
}

/** The inverse of `unescapeKeys`: a backslash before a character that is no escape (`\q`), or
 * ends the text, was kept as typed, so it is shown as typed, not doubled. */
export function escapeKeys(text: string): string {
  const names = Object.fromEntries(Object.entries(KEY_ESCAPES).map(([name, key]) => [key, `\\${name}`]));
  const chars = [...text];
  return chars
    .map((c, i) => {
      const next = chars[i + 1];
      const plain = next === undefined || (!(next in names) && !(next in KEY_ESCAPES));
      return c === '\\' && plain ? c : (names[c] ?? c);
    })
    .join('');
}

/** The environment lines as a record; a line that is not `KEY=value` (no `=`, or nothing before
 * it) is reported by its number (1-based). */
export function parseEnv(text: string): { env: Record<string, string>; bad: number[] } {
  const env: Record<string, string> = {};
  const bad: number[] = [];
  text.split('\n').forEach((line, index) => {
    if (!line.trim()) return;
    const at = line.indexOf('=');
    if (at <= 0) bad.push(index + 1);
    else env[line.slice(0, at).trim()] = line.slice(at + 1);
  });
  return { env, bad };
}

export function toForm(profile: Profile): ProfileForm {
  const ci = profile.contextInjection;
  return {
    name: profile.name,
    command: profile.command,
    args: profile.args.join('\n'),
    env: Object.entries(profile.env ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
    strategy: ci.strategy,
    target: ci.target ?? '',
    flag: ci.flag ?? '',
    variable: ci.var ?? '',
    cwd: profile.cwdTemplate ?? '{agentRunDir}',
    projectAccess: (profile.projectAccess?.args ?? []).join('\n'),
    promptReady: profile.promptReadyPattern ?? '',
    waitingScreens: (profile.waitingScreens ?? []).join('\n'),
    submit: profile.submitSequence === undefined ? '' : escapeKeys(profile.submitSequence),
    structured: profile.structured?.protocol ?? '',
    structuredCommand: profile.structured?.command ?? '',
    structuredArgs: (profile.structured?.args ?? []).join('\n'),
    resumeFlag: profile.session?.resumeFlag ?? '',
    resumeArgs: (profile.session?.resumeArgs ?? []).join('\n'),
  };
}

/** `base` with the form's values (the keys the form does not show are kept). */
export function fromForm(base: Profile, form: ProfileForm): Profile {
  const out: Profile = { ...base, name: form.name, command: form.command.trim(), args: lines(form.args) };
  const { env } = parseEnv(form.env);
  if (Object.keys(env).length > 0) out.env = env;
  else delete out.env;
  const ci: Profile['contextInjection'] = { ...base.contextInjection, strategy: form.strategy };
  for (const [key, value] of [
    ['target', form.target],
    ['flag', form.flag],
    ['var', form.variable],
  ] as const) {
    if (value.trim()) ci[key] = value.trim();
    else delete ci[key];
  }
  out.contextInjection = ci;
  out.cwdTemplate = form.cwd || '{agentRunDir}';
  const access = lines(form.projectAccess);
  if (access.length > 0 || base.projectAccess) out.projectAccess = { args: access };
  setOptional(out, 'promptReadyPattern', form.promptReady.trim() ? form.promptReady : '');
  const screens = lines(form.waitingScreens);
  if (screens.length > 0 || base.waitingScreens) out.waitingScreens = screens;
  setOptional(out, 'submitSequence', form.submit ? unescapeKeys(form.submit) : '');
  if (form.structured) {
    const structured: NonNullable<Profile['structured']> = { protocol: form.structured };
    if (form.structuredCommand.trim()) structured.command = form.structuredCommand.trim();
    const args = lines(form.structuredArgs);
    if (args.length > 0) structured.args = args;
    out.structured = structured;
  } else {
    delete out.structured;
    delete out.structuredAdapter;
  }
  const session: NonNullable<Profile['session']> = { ...(base.session ?? {}) };
  delete session.resumeFlag;
  delete session.resumeArgs;
  const resumeArgs = lines(form.resumeArgs);
  if (resumeArgs.length > 0) session.resumeArgs = resumeArgs;
  else if (form.resumeFlag.trim()) session.resumeFlag = form.resumeFlag.trim();
  if (Object.keys(session).length > 0) out.session = session;
  else delete out.session;
  return out;
}

function setOptional(profile: Profile, key: 'promptReadyPattern' | 'submitSequence', value: string): void {
  if (value) profile[key] = value;
  else delete profile[key];
}

/** A fresh id from `base` (`claude-code` → `claude-code-copy`, `-copy-2`, …) not in `taken`. */
export function freshId(base: string, taken: readonly string[]): string {
  const stem = `${base}-copy`;
  if (!taken.includes(stem)) return stem;
  for (let n = 2; ; n++) if (!taken.includes(`${stem}-${n}`)) return `${stem}-${n}`;
}

/** A fresh id for a template (`acp-agent`, `acp-agent-2`, …). */
export function templateId(base: string, taken: readonly string[]): string {
  if (!taken.includes(base)) return base;
  for (let n = 2; ; n++) if (!taken.includes(`${base}-${n}`)) return `${base}-${n}`;
}
