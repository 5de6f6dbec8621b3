import { z } from 'zod';
import { endpointGroup, noContentSchema, signedInErrors } from '../shared/endpoint';
import { ownPlanSchema, planRequestSchema, planParamsSchema, planSchema } from './plans.schemas';

/** Plans: what each person may add (administrators manage them; everyone reads their own use). */
export const planEndpoints = endpointGroup('Plans', {
  list: {
    method: 'GET',
    path: '/api/admin/plans',
    summary: 'Every plan, with how many people have it (administrators only).',
    access: 'admin',
    responses: { 200: z.array(planSchema), ...signedInErrors('FORBIDDEN') },
  },
  create: {
    method: 'POST',
    path: '/api/admin/plans',
    summary: 'Create a plan (administrators only).',
    access: 'admin',
    body: planRequestSchema,
    responses: { 201: planSchema, ...signedInErrors('FORBIDDEN', 'CONFLICT') },
  },
  update: {
    method: 'PUT',
    path: '/api/admin/plans/:id',
    summary:
      "Change a plan's name and limits; its people's next adds meet the new limits (administrators only).",
    access: 'admin',
    params: planParamsSchema,
    body: planRequestSchema,
    responses: { 200: planSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND', 'CONFLICT') },
  },
  makeDefault: {
    method: 'POST',
    path: '/api/admin/plans/:id/default',
    summary: 'Make the plan the one new people get (administrators only).',
    access: 'admin',
    params: planParamsSchema,
    responses: { 200: planSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND') },
  },
  remove: {
    method: 'DELETE',
    path: '/api/admin/plans/:id',
    summary: 'Deletes a plan nobody has; not the default plan (administrators only).',
    destructive: 'guardian',
    access: 'admin',
    params: planParamsSchema,
    responses: { 204: noContentSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND', 'CONFLICT') },
  },
  own: {
    method: 'GET',
    path: '/api/me/plan',
    summary: 'Your plan and your use of each of its limits.',
    responses: { 200: ownPlanSchema, ...signedInErrors('FORBIDDEN') },
  },
});
