import type { FastifyReply } from 'fastify';
import type { JobOutcome } from './jobs.service';

/**
 * The answer of a call that started a job: what the job answered when it ended within the wait (as
 * the call answered before it was a job), else 202 with the job, for the screen to poll.
 */
export function answerOrJob<T>(reply: FastifyReply, outcome: JobOutcome<T>) {
  return 'job' in outcome ? reply.code(202).send(outcome.job) : outcome.result;
}
