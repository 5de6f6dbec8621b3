import { z } from 'zod';
import {
  apiKeyParamsSchema,
  apiKeySchema,
  createApiKeyRequestSchema,
  createdApiKeySchema,
  userApiKeyParamsSchema,
} from './api-keys.schemas';
import { userParamsSchema } from '../users/users.schemas';
import { endpointGroup, noContentSchema, signedInErrors } from '../shared/endpoint';

export const apiKeyEndpoints = endpointGroup('API keys', {
  list: {
    method: 'GET',
    path: '/api/me/api-keys',
    summary: "The person's API keys (never the keys themselves: their last four characters).",
    responses: { 200: z.array(apiKeySchema), ...signedInErrors('FORBIDDEN') },
  },
  create: {
    method: 'POST',
    path: '/api/me/api-keys',
    summary: 'Create a key for scripts; the answer shows it once.',
    body: createApiKeyRequestSchema,
    responses: { 201: createdApiKeySchema, ...signedInErrors('FORBIDDEN', 'CONFLICT') },
  },
  revoke: {
    method: 'DELETE',
    path: '/api/me/api-keys/:id',
    summary: 'Revokes a key: refused from now on.',
    destructive: 'guardian',
    params: apiKeyParamsSchema,
    responses: { 204: noContentSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND') },
  },
  userList: {
    method: 'GET',
    path: '/api/admin/users/:id/api-keys',
    summary: "A person's API keys (their last four characters), to revoke (administrators only).",
    access: 'admin',
    params: userParamsSchema,
    responses: { 200: z.array(apiKeySchema), ...signedInErrors('FORBIDDEN', 'NOT_FOUND') },
  },
  userRevoke: {
    method: 'DELETE',
    path: '/api/admin/users/:id/api-keys/:key_id',
    summary: "Revokes a person's API key: refused from now on (administrators only).",
    destructive: 'guardian',
    access: 'admin',
    params: userApiKeyParamsSchema,
    responses: { 204: noContentSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND') },
  },
});
