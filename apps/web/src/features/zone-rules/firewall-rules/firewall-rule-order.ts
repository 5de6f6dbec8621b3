import type { FirewallRule } from '@guardian/contract';

/** The list with one rule moved from one position to another, priorities renumbered from 1. */
export function moveFirewallRule(rules: readonly FirewallRule[], from: number, to: number): FirewallRule[] {
  const reordered = [...rules];
  const [moved] = reordered.splice(from, 1);
  if (moved) reordered.splice(to, 0, moved);
  return reordered.map((rule, index) => ({ ...rule, priority: index + 1 }));
}
