// The dns-records module's entry: the one file other modules and the composition root import (lint holds it).
export { dnsRecordsRoutes } from './dns-records.routes';
export { DnsRecordsService } from './dns-records.service';
