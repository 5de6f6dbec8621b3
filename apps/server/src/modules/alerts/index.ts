// The alerts module's entry: the one file other modules and the composition root import (lint holds it).
export {
  AlertCauses,
  CAPACITY_THRESHOLD,
  type AccountUse,
  type AccountUses,
  type RaisedAlert,
  type TicketRef,
} from './alert-causes';
export { alertsRoutes } from './alerts.routes';
export { AlertsService } from './alerts.service';
