// Filled by the banlists feature: request and response schemas of its /api calls.
export {};
