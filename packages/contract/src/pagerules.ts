// Filled by the pagerules feature: request and response schemas of its /api calls.
export {};
