import {
  systemSettingsSchema,
  systemSettingsUpdateRequestSchema,
  testEmailRequestSchema,
  testEmailResultSchema,
} from './system-settings.schemas';
import { endpointGroup, signedInErrors } from '../shared/endpoint';

/** System Setting: administrators only; every change audited. */
export const systemSettingEndpoints = endpointGroup('System settings', {
  get: {
    method: 'GET',
    path: '/api/admin/settings',
    summary:
      'The system settings as they apply now, and which an environment variable sets (administrators only).',
    access: 'admin',
    responses: { 200: systemSettingsSchema, ...signedInErrors('FORBIDDEN') },
  },
  update: {
    method: 'PUT',
    path: '/api/admin/settings',
    summary:
      'Change system settings (every server process applies them within seconds); the SMTP password is stored encrypted (administrators only).',
    access: 'admin',
    body: systemSettingsUpdateRequestSchema,
    responses: { 200: systemSettingsSchema, ...signedInErrors('FORBIDDEN') },
  },
  testEmail: {
    method: 'POST',
    path: '/api/admin/settings/test-email',
    summary:
      'Send a test e-mail through the SMTP settings (administrators only); a failure says what the server answered.',
    access: 'admin',
    body: testEmailRequestSchema,
    responses: { 200: testEmailResultSchema, ...signedInErrors('FORBIDDEN', 'UPSTREAM') },
  },
});
