import type { FastifyRequest } from 'fastify';

/**
 * Who changes an item through Guardian, as its provenance and history name them: the person, and how
 * they came (the console, or a script with an API key, whose name is kept with theirs).
 */
export interface ItemActor {
  userId: number;
  name: string;
  via: 'console' | 'api';
}

/** The actor of a signed-in request (the audit trail names a script's change the same way). */
export function itemActorOf(request: FastifyRequest): ItemActor {
  const { id, email } = request.user;
  return request.apiKey
    ? { userId: id, name: `${email} (API key "${request.apiKey.name}")`, via: 'api' }
    : { userId: id, name: email, via: 'console' };
}
