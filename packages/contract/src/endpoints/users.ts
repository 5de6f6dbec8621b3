import { userListSchema } from '../users';
import { endpointGroup, signedInErrors } from './endpoint';

export const userEndpoints = endpointGroup('Users', {
  list: {
    method: 'GET',
    path: '/api/admin/users',
    summary: 'Every user (administrators only).',
    access: 'admin',
    responses: { 200: userListSchema, ...signedInErrors('FORBIDDEN') },
  },
});
