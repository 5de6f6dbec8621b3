// The firewall-rules module's entry: the one file other modules and the composition root import (lint holds it).
export { CustomRules } from './custom-rules';
export { toFirewallRules } from './firewall-rule-mapping';
export { firewallRulesRoutes } from './firewall-rules.routes';
export { FirewallRulesService } from './firewall-rules.service';
export { listPurposesOf, type ListPurposes, type ListPurposesRead } from './list-uses';
