import { describe, expect, it } from 'vitest';
import { moveFirewallRule } from './firewall-rule-order';
import { firewallRule } from '../../../test/firewall-rule';

const rule = firewallRule;

describe('moveFirewallRule', () => {
  const rules = [rule('a', 1), rule('b', 2), rule('c', 3), rule('d', 4)];

  it('moves a rule down and renumbers priorities from 1', () => {
    expect(moveFirewallRule(rules, 0, 2).map((r) => [r.id, r.priority])).toEqual([
      ['b', 1],
      ['c', 2],
      ['a', 3],
      ['d', 4],
    ]);
  });

  it('moves a rule up and leaves the original list alone', () => {
    expect(moveFirewallRule(rules, 3, 0).map((r) => r.id)).toEqual(['d', 'a', 'b', 'c']);
    expect(rules.map((r) => r.id)).toEqual(['a', 'b', 'c', 'd']);
  });
});
