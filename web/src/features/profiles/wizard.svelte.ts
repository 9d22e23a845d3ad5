import { asGatewayError, type Gateway, type Profile, type ProfileDetection } from '../../lib/ports';

/** The CLIs the wizard always lists, in this order (ids of the built-in catalogue). */
export const WIZARD_PROFILE_IDS = ['claude-code', 'codex-cli', 'gemini-cli', 'aider', 'shell'] as const;

const FALLBACK_NAMES: Record<string, string> = {
  'claude-code': 'Claude Code',
  'codex-cli': 'Codex CLI',
  'gemini-cli': 'Gemini CLI',
  aider: 'Aider',
  shell: 'Shell',
};

/** One row of the wizard. */
export interface WizardRow {
  id: string;
  name: string;
  command: string;
  installed: boolean;
  version: string | null;
  profile: Profile | null;
  /** Saved already but unknown to detection (a profile the user added by hand). */
  custom: boolean;
}

/** Shell profile used when detection does not report one (the shell is always offered). */
export function fallbackShellProfile(platform: string): Profile {
  const windows = platform.toLowerCase().startsWith('win');
  return {
    id: 'shell',
    name: 'Shell',
    command: windows ? 'powershell.exe' : 'sh',
    args: [],
    contextInjection: { strategy: 'env', var: 'IDEA_CONTEXT' },
  };
}

/**
 * Profile wizard. First run: `profiles.detect()`, then the user ticks profiles (installed ones
 * and Shell preselected) and `profiles.save(selected)` stores them and marks the first run done.
 * Reopened later ("Profiles…", `load({ current: true })`): `profiles.list()` too, the saved
 * profiles are ticked and kept as saved (their settings win over the detected defaults).
 */
export class ProfileWizard {
  #rows = $state.raw<WizardRow[]>([]);
  #selected = $state.raw<Record<string, boolean>>({});
  #loading = $state(true);
  #saving = $state(false);
  #error = $state<string | null>(null);

  readonly #selectedCount = $derived(Object.values(this.#selected).filter(Boolean).length);

  #gateway: Gateway;
  #platform: string;

  constructor(gateway: Gateway, platform = 'linux') {
    this.#gateway = gateway;
    this.#platform = platform;
  }

  /** One row per CLI the wizard offers. */
  get rows(): readonly WizardRow[] {
    return this.#rows;
  }

  /** Ticked rows, by profile id. */
  get selected(): Readonly<Record<string, boolean>> {
    return this.#selected;
  }

  get selectedCount(): number {
    return this.#selectedCount;
  }

  /** Detection (and, when managing, the saved profiles) still in flight. */
  get loading(): boolean {
    return this.#loading;
  }

  get saving(): boolean {
    return this.#saving;
  }

  /** What went wrong while loading or saving, in the user's terms. */
  get error(): string | null {
    return this.#error;
  }

  async load(options: { current?: boolean } = {}): Promise<void> {
    this.#loading = true;
    this.#error = null;
    const errors: string[] = [];
    const [detections, current] = await Promise.all([
      this.#gateway.profiles.detect().catch((error: unknown) => {
        errors.push(`Detection failed: ${asGatewayError(error).message}`);
        return [] as ProfileDetection[];
      }),
      options.current
        ? this.#gateway.profiles.list().catch((error: unknown) => {
            errors.push(`Could not read the current profiles: ${asGatewayError(error).message}`);
            return null;
          })
        : Promise.resolve(null),
    ]);
    const detected = detectedRows(detections, this.#platform);
    if (current) {
      this.#rows = withSavedProfiles(detected, current);
      this.#selected = Object.fromEntries(this.#rows.map((r) => [r.id, current.some((p) => p.id === r.id)]));
    } else {
      this.#rows = detected;
      this.#selected = Object.fromEntries(this.#rows.map((r) => [r.id, r.profile !== null && (r.installed || r.id === 'shell')]));
    }
    this.#error = errors.length > 0 ? errors.join(' ') : null;
    this.#loading = false;
  }

  toggle(id: string, on: boolean): void {
    this.#selected = { ...this.#selected, [id]: on };
  }

  /** Saves the ticked profiles; resolves to what the backend stored, or null on failure. */
  async save(): Promise<Profile[] | null> {
    const chosen = this.#rows.flatMap((r) => (this.#selected[r.id] && r.profile ? [r.profile] : []));
    this.#saving = true;
    this.#error = null;
    try {
      return await this.#gateway.profiles.save(chosen);
    } catch (error) {
      this.#error = `Could not save profiles: ${asGatewayError(error).message}`;
      return null;
    } finally {
      this.#saving = false;
    }
  }
}

/** The wizard's rows for a detection: the fixed catalogue first, then any extra profile detected. */
function detectedRows(detections: ProfileDetection[], platform: string): WizardRow[] {
  const byId = new Map(detections.map((d) => [d.profile.id, d]));
  const extra = detections.filter((d) => !(WIZARD_PROFILE_IDS as readonly string[]).includes(d.profile.id));
  return [
    ...WIZARD_PROFILE_IDS.map((id) => toRow(id, byId.get(id) ?? null, platform)),
    ...extra.map((d) => toRow(d.profile.id, d, platform)),
  ];
}

/** Saved profiles win over the detected defaults; saved ones detection does not know come last. */
function withSavedProfiles(detected: WizardRow[], current: Profile[]): WizardRow[] {
  const saved = new Map(current.map((p) => [p.id, p]));
  const rows = detected.map((r) => {
    const profile = saved.get(r.id);
    return profile ? { ...r, name: profile.name || r.name, command: profile.command, profile } : r;
  });
  const custom = current.filter((p) => !rows.some((r) => r.id === p.id));
  return [...rows, ...custom.map(customRow)];
}

function toRow(id: string, detection: ProfileDetection | null, platform: string): WizardRow {
  if (detection) {
    return {
      id,
      name: detection.profile.name || FALLBACK_NAMES[id] || id,
      command: detection.profile.command,
      installed: id === 'shell' ? true : detection.installed,
      version: detection.version,
      profile: detection.profile,
      custom: false,
    };
  }
  if (id === 'shell') {
    const profile = fallbackShellProfile(platform);
    return { id, name: 'Shell', command: profile.command, installed: true, version: null, profile, custom: false };
  }
  return { id, name: FALLBACK_NAMES[id] ?? id, command: '', installed: false, version: null, profile: null, custom: false };
}

function customRow(profile: Profile): WizardRow {
  const name = profile.name || profile.id;
  return { id: profile.id, name, command: profile.command, installed: false, version: null, profile, custom: true };
}
