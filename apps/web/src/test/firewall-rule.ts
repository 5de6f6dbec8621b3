import type { FirewallRule } from '@guardian/contract';

/** A firewall rule with the given id (also its description and filter id) and priority. */
export const firewallRule = (id: string, priority: number): FirewallRule => ({
  id,
  description: id,
  action: 'block',
  paused: false,
  priority,
  filter: { id, expression: 'cf.client.bot', paused: false },
});
