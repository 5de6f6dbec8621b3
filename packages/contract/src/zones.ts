// Filled by the zones feature: request and response schemas of its /api calls.
export {};
