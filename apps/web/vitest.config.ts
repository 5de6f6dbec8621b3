import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    // Room for several of the setup's 30 s waits: these tests render the app and type into real forms,
    // on machines that are shared and often busy.
    testTimeout: 120_000,
  },
});
