// The zones module's entry: the one file other modules and the composition root import (lint holds it).
export { fetchAllPages } from './all-pages';
export { OwnedZones } from './owned-zone';
export { zoneSettingsRoutes } from './zone-settings.routes';
export { ZoneSettingsService } from './zone-settings.service';
export { ZonesSyncJobs } from './zones-sync-job';
export { ZonesRepository, type OwnedZone, type ZoneRecord } from './zones.repository';
export { zonesRoutes } from './zones.routes';
export { ZonesService } from './zones.service';
