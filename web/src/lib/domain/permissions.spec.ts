import { describe, expect, it } from 'vitest';
import type { PermissionsDoc } from '../ports';
import { fieldTarget, machineLine, newDocument, replacesVendorSandbox, withCapability, withPatterns, withPolicy } from './permissions';

describe('editing a permissions.json draft', () => {
  it('replaces one policy and keeps unknown keys and the other policies', () => {
    const doc: PermissionsDoc = { ...newDocument(), future: { kept: true }, agents: { a1: { rules: [], fallback: 'deny' } } };
    const next = withPolicy(doc, 'a2', { rules: [], fallback: 'allow' });
    expect(next.future).toEqual({ kept: true });
    expect(Object.keys(next.agents ?? {})).toEqual(['a1', 'a2']);
    const back = withPolicy(withPolicy(next, 'a1', undefined), 'a2', undefined);
    expect(back.agents).toBeUndefined();
    expect(doc.agents).toEqual({ a1: { rules: [], fallback: 'deny' } });
  });

  it('moves patterns to the key the capability takes', () => {
    const rule = withPatterns({ capability: 'write', effect: 'deny' }, ' src/**\n\n*.lock ');
    expect(rule.paths).toEqual(['src/**', '*.lock']);
    const bash = withCapability(rule, 'executeBash');
    expect(bash).toEqual({ capability: 'executeBash', effect: 'deny', commands: ['src/**', '*.lock'] });
  });

  it('finds the field the backend names in this scope only', () => {
    expect(fieldTarget('projectDefaults.rules[2].paths[0]', null)).toEqual({ part: 'rule', rule: 2, key: 'paths' });
    expect(fieldTarget('agents.a1.fallback', 'a1')).toEqual({ part: 'fallback' });
    expect(fieldTarget('agents.a1.rules[0]', null)).toBeNull();
  });
});

describe('what the editor says of the machine', () => {
  it('names the kernel, a partial ABI, or a no-op OS', () => {
    expect(machineLine({ state: 'enforced', message: 'Landlock ABI 7' }, 'linux')).toContain('Landlock ABI 7');
    expect(machineLine({ state: 'degraded', message: 'no TRUNCATE' }, 'linux')).toContain('only in part: no TRUNCATE');
    expect(machineLine({ state: 'unsupported', message: 'no Landlock' }, 'win32')).toContain('No OS sandbox on Windows (a no-op here)');
  });

  it("says IdeA's sandbox replaces the vendor's only where it confines, and only for CLIs that have one", () => {
    const on = { state: 'enforced' as const, message: 'Landlock ABI 7' };
    expect(replacesVendorSandbox(on, 'codex-cli')).toContain("replaces Codex's own sandbox");
    expect(replacesVendorSandbox(on, 'shell')).toBeNull();
    expect(replacesVendorSandbox(on)).toContain("replaces the vendor's bubblewrap");
    expect(replacesVendorSandbox({ state: 'unsupported', message: 'macOS' }, 'claude-code')).toBeNull();
  });
});
