export { CloudflareGateway, CLOUDFLARE_DEFAULTS, type CloudflareOptions } from './client';
export { cloudflareErrorToAppError } from './errors';
export { waitForBulkOperation } from './bulk-operations';
export { accountClient, type AccountClientDeps } from './account-client';
