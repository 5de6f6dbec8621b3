import type { Alert, AlertsPage, AlertsQuery } from '@guardian/contract';
import { alertsQuerySchema } from '@guardian/contract';
import { AppError } from '../../app-error';
import type { Db } from '../../db';
import { AlertsRepository } from './alerts.repository';

const alertNotFound = () => new AppError('NOT_FOUND', 'Alert not found.');

/**
 * A person's alerts, as the alerts page and the bell read them: their own only (another person's
 * alert is "not found", administrators included).
 */
export class AlertsService {
  private readonly alerts: AlertsRepository;

  constructor(db: Db) {
    this.alerts = new AlertsRepository(db);
  }

  async list(userId: number, query: AlertsQuery): Promise<AlertsPage> {
    const filter = alertsQuerySchema.parse(query);
    const { alerts, nextCursor } = await this.alerts.page(userId, filter);
    return { alerts, next_cursor: nextCursor };
  }

  /** The person's open alerts, up to ALERTS_OPEN_COUNT_MAX: the bell, and the overview's Security Alerts tile. */
  openCount(userId: number): Promise<number> {
    return this.alerts.openCount(userId);
  }

  async acknowledge(userId: number, id: number): Promise<Alert> {
    const found = await this.alerts.setState(userId, id, 'acknowledged');
    if (!found) throw alertNotFound();
    return found.alert;
  }

  async resolve(userId: number, id: number): Promise<Alert> {
    const found = await this.alerts.setState(userId, id, 'resolved');
    if (!found) throw alertNotFound();
    return found.alert;
  }
}
