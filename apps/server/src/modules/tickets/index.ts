// The tickets module's entry: the one file other modules and the composition root import (lint holds it).
export { TicketNotices, type TicketAlerts } from './ticket-notices';
export { TicketsRepository } from './tickets.repository';
export { ticketsRoutes } from './tickets.routes';
export { TicketsService } from './tickets.service';
