import { BAN_LIST_IMPORT_TEXT_MAX, banListItemEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { route } from '../../endpoint-route';
import { answerOrJob } from '../../jobs/job-answer';
import type { ImportActor, ListImportService } from './list-import.service';

export interface ListImportRoutesOptions {
  listImport: ListImportService;
}

/**
 * An import's text may be up to BAN_LIST_IMPORT_TEXT_MAX characters (100,000 lines of CSV with
 * comments); JSON escapes and multi-byte characters make its body larger than that. Past this the
 * answer is 413 "The request body is too large."
 */
const IMPORT_BODY_LIMIT = BAN_LIST_IMPORT_TEXT_MAX * 2;

/** The person (and the API key, for a script) the Added by column names for what they import. */
function actorOf(request: FastifyRequest): ImportActor {
  const { id, email } = request.user;
  return request.apiKey
    ? { userId: id, name: `${email} (API key "${request.apiKey.name}")` }
    : { userId: id, name: email };
}

/** Import into a ban list: preview, then apply (issue 15). */
export const listImportRoutes: FastifyPluginAsync<ListImportRoutesOptions> = async (app, { listImport }) => {
  route(
    app,
    banListItemEndpoints.importPreview,
    async (request) => listImport.preview(request.user.id, request.params.list_id, request.body),
    { owns: ['list_id'], bodyLimit: IMPORT_BODY_LIMIT },
  );

  route(
    app,
    banListItemEndpoints.importApply,
    async (request, reply) => {
      const outcome = await listImport.apply(
        actorOf(request),
        request.params.list_id,
        request.params.import_id,
        request.body.expires,
      );
      return answerOrJob(reply, outcome);
    },
    { owns: ['list_id', 'import_id'] },
  );
};
