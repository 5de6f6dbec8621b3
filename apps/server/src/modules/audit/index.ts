// The audit module's entry: the one file other modules and the composition root import (lint holds it).
export { registerAuditTrail, requestAccountOf, type AuditContext } from './audit-trail';
export { AuditRepository } from './audit.repository';
export { auditRoutes } from './audit.routes';
