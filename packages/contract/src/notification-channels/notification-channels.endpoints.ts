import { endpointGroup, noContentSchema, signedInErrors } from '../shared/endpoint';
import {
  channelParamsSchema,
  channelRequestSchema,
  channelTestResultSchema,
  channelUpdateRequestSchema,
  createdChannelSchema,
  notificationChannelSchema,
  notificationChannelsSchema,
} from './notification-channels.schemas';

/** System Setting's notification channels: administrators only; every change audited. */
export const notificationChannelEndpoints = endpointGroup('Notification channels', {
  list: {
    method: 'GET',
    path: '/api/admin/notification-channels',
    summary:
      'The notification channels (URLs masked), each with its last delivery and failures (administrators only).',
    access: 'admin',
    responses: { 200: notificationChannelsSchema, ...signedInErrors('FORBIDDEN') },
  },
  create: {
    method: 'POST',
    path: '/api/admin/notification-channels',
    summary: "Add a channel; a webhook channel's signing secret is answered this once (administrators only).",
    access: 'admin',
    body: channelRequestSchema,
    responses: { 201: createdChannelSchema, ...signedInErrors('FORBIDDEN', 'CONFLICT') },
  },
  update: {
    method: 'PUT',
    path: '/api/admin/notification-channels/:id',
    summary: "Change a channel's name, URL or whether it is on (administrators only).",
    access: 'admin',
    params: channelParamsSchema,
    body: channelUpdateRequestSchema,
    responses: { 200: notificationChannelSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND') },
  },
  remove: {
    method: 'DELETE',
    path: '/api/admin/notification-channels/:id',
    summary: 'Deletes a channel and its deliveries still waiting (administrators only).',
    destructive: 'guardian',
    access: 'admin',
    params: channelParamsSchema,
    responses: { 204: noContentSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND') },
  },
  test: {
    method: 'POST',
    path: '/api/admin/notification-channels/:id/test',
    summary:
      'Send a test message to the channel now; answers what the receiver said, or a 409 saying what went wrong (administrators only).',
    access: 'admin',
    params: channelParamsSchema,
    responses: {
      200: channelTestResultSchema,
      ...signedInErrors('FORBIDDEN', 'NOT_FOUND', 'CONFLICT'),
    },
  },
});
