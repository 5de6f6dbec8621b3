import { jobParamsSchema, jobSchema, jobsListSchema, jobsQuerySchema } from './jobs.schemas';
import { endpointGroup, noContentSchema, signedInErrors } from '../shared/endpoint';

export const jobEndpoints = endpointGroup('Jobs', {
  list: {
    method: 'GET',
    path: '/api/jobs',
    summary:
      "The person's background operations, newest first (administrators: everyone's with scope=all), and how many ended unseen.",
    query: jobsQuerySchema,
    responses: { 200: jobsListSchema, ...signedInErrors('FORBIDDEN') },
  },
  get: {
    method: 'GET',
    path: '/api/jobs/:id',
    summary: 'One job: its state and progress (poll it until it has ended).',
    params: jobParamsSchema,
    responses: { 200: jobSchema, ...signedInErrors('NOT_FOUND') },
  },
  cancel: {
    method: 'POST',
    path: '/api/jobs/:id/cancel',
    summary: 'Cancel a job the person started: at once if it waits, at its next step if it runs.',
    params: jobParamsSchema,
    responses: { 200: jobSchema, ...signedInErrors('NOT_FOUND') },
  },
  seen: {
    method: 'POST',
    path: '/api/jobs/seen',
    summary: "The person has looked at their jobs: the bell's dot goes out until another one ends.",
    responses: { 204: noContentSchema, ...signedInErrors() },
  },
});
