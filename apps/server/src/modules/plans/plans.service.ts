import { MAX_PLANS, type OwnPlan, type Plan, type PlanFields } from '@guardian/contract';
import { AppError } from '../../app-error';
import { isUniqueViolation, type Db } from '../../db';
import { PlansRepository } from './plans.repository';

/** People a refused delete names; the rest are counted. */
const PEOPLE_NAMED = 5;

const planNotFound = () => new AppError('NOT_FOUND', 'Plan not found.');
const nameTaken = (name: string) => new AppError('CONFLICT', `There is already a plan named "${name}".`);

/** Administrators' plans, and each person's use of theirs. */
export class PlansService {
  private readonly plans: PlansRepository;

  constructor(private readonly db: Db) {
    this.plans = new PlansRepository(db);
  }

  list(): Promise<Plan[]> {
    return this.plans.list();
  }

  async create(fields: PlanFields): Promise<Plan> {
    if ((await this.plans.count()) >= MAX_PLANS) {
      throw new AppError('CONFLICT', `There are already ${MAX_PLANS} plans: delete one first.`);
    }
    return this.unique(fields.name, () => this.plans.insert(fields));
  }

  async update(id: number, fields: PlanFields): Promise<Plan> {
    const plan = await this.unique(fields.name, () => this.plans.update(id, fields));
    if (!plan) throw planNotFound();
    return plan;
  }

  async makeDefault(id: number): Promise<Plan> {
    const plan = await this.db.transaction(async (tx) => {
      const plans = new PlansRepository(tx);
      if (!(await plans.lockWithPeople(id, 0))) return undefined;
      await plans.makeDefault(id);
      return plans.find(id);
    });
    if (!plan) throw planNotFound();
    return plan;
  }

  /** Deletes a plan nobody has; the refusal names who has it. Returns its name for the trail. */
  async remove(id: number): Promise<string> {
    return this.db.transaction(async (tx) => {
      const plans = new PlansRepository(tx);
      const found = await plans.lockWithPeople(id, PEOPLE_NAMED);
      if (!found) throw planNotFound();
      const { plan, emails } = found;
      if (plan.is_default) {
        throw new AppError(
          'CONFLICT',
          `"${plan.name}" is the default plan: make another plan the default first.`,
        );
      }
      if (plan.users > 0) {
        const more = plan.users - emails.length;
        throw new AppError(
          'CONFLICT',
          `"${plan.name}" is in use by ${emails.join(', ')}${more > 0 ? ` and ${more} more` : ''}: give them another plan first.`,
        );
      }
      await plans.delete(id);
      return plan.name;
    });
  }

  async own(userId: number): Promise<OwnPlan> {
    const plan = await this.plans.planOf(userId);
    if (!plan) throw new AppError('NOT_FOUND', 'User not found.');
    return { name: plan.name, report_range: plan.report_range, use: await this.plans.use(userId, plan) };
  }

  private async unique<T>(name: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken(name);
      throw err;
    }
  }
}
