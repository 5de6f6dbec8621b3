import { defineProject } from 'vitest/config';

// Bounds that hold on two busy cores (a shared CI machine): Vitest's default of 5 s does not.
export default defineProject({
  test: { name: 'contract', include: ['src/**/*.test.ts'], testTimeout: 30_000 },
});
