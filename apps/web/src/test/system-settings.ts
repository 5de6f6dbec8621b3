import type { SystemSettings } from '@guardian/contract';

/** System Setting as GET /api/admin/settings answers it on a fresh install, with `overrides` set. */
export const systemSettings = (
  overrides: Partial<SystemSettings['values']> = {},
  fromEnvironment: SystemSettings['from_environment'] = {},
): SystemSettings => ({
  values: {
    smtp_host: null,
    smtp_port: 587,
    smtp_tls: 'starttls',
    smtp_user: null,
    smtp_password_set: false,
    smtp_sender: null,
    require_two_factor: false,
    session_lifetime_minutes: 720,
    sign_in_window_minutes: 60,
    sign_in_failures_per_email: 5,
    sign_in_failures_per_address: 30,
    audit_retention_days: 365,
    snapshot_retention_hours: 168,
    resolved_alert_retention_days: 90,
    expiry_sweep_seconds: 60,
    ...overrides,
  },
  from_environment: fromEnvironment,
  updated_at: null,
});
