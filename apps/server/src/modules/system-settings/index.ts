// The system-settings module's entry: the one file other modules and the composition root import (lint holds it).
export { Mailer, type Mail } from './mailer';
export { systemSettingsRoutes } from './system-settings.routes';
export { SystemSettings, type EffectiveSettings, type SmtpSettings } from './system-settings.service';
