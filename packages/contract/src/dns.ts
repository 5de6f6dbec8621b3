// Filled by the dns feature: request and response schemas of its /api calls.
export {};
