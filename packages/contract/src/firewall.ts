// Filled by the firewall feature: request and response schemas of its /api calls.
export {};
