import { z } from 'zod';
import { endpointGroup, signedInErrors } from './endpoint';

/** Where the API reference page and its document are served. */
export const API_DOCS_PATH = '/api/docs';

export const apiReferenceEndpoints = endpointGroup('API reference', {
  document: {
    method: 'GET',
    path: '/api/openapi.json',
    summary: 'This API as an OpenAPI 3.1 document (the reference page at /api/docs reads it).',
    responses: {
      200: z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) }),
      ...signedInErrors(),
    },
  },
});
