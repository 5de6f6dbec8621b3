import { join } from 'node:path';
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/** Every screen of the web app (apps/web/src/features/<screen>): each is a zone of its own. */
const WEB_FEATURES = readdirSync('apps/web/src/features', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const SERVER_NEVER_IMPORTS_WEB = {
  target: './apps/server',
  from: './apps/web',
  message: ' The server never imports the web app.',
};

/** cloudflare/ talks to Cloudflare for every module and knows none. */
/** jobs/ runs every module's jobs and knows none (each kind is defined by its module, registered by services.ts). */
const JOBS_IMPORT_NO_MODULE = {
  target: './apps/server/src/jobs',
  from: './apps/server/src/modules',
  message: " jobs/ is infrastructure: it runs the modules' jobs and imports none.",
};

const CLOUDFLARE_IMPORTS_NO_MODULE = {
  target: './apps/server/src/cloudflare',
  from: './apps/server/src/modules',
  message: ' cloudflare/ talks to Cloudflare for every module and imports none.',
};

/**
 * Each server module (apps/server/src/modules/<module>/) is imported only through its entry, index.ts:
 * what it offers others is listed there, and its other files can change without anyone noticing.
 */
const MODULE_ENTRY_ONLY = ' Import a server module through its entry (index.ts), not one of its files.';
const moduleEntryOnly = (regex) => ({
  'no-restricted-imports': ['error', { patterns: [{ regex, message: MODULE_ENTRY_ONLY }] }],
});

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // The boundaries between folders, as bulletproof-react's lint config keeps them.
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // How import-x reads the files an import leads to (no-cycle follows them).
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['packages/*/tsconfig.json', 'apps/*/tsconfig.json', 'e2e/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    // no-unresolved too: an import the resolver cannot follow would be invisible to no-cycle.
    rules: { 'import-x/no-cycle': 'error', 'import-x/no-unresolved': 'error' },
  },
  // Each workspace declares what it imports (its own package.json, or the root's shared tooling): a
  // package used but not declared installs only by the luck of hoisting.
  ...['apps/server', 'apps/web', 'apps/sandbox', 'packages/contract', 'e2e'].map((workspace) => ({
    files: [`${workspace}/**/*.{ts,tsx}`],
    rules: {
      'import-x/no-extraneous-dependencies': [
        'error',
        { packageDir: [join(import.meta.dirname, workspace), import.meta.dirname] },
      ],
    },
  })),
  {
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: WEB_FEATURES.map((feature) => ({
            target: `./apps/web/src/features/${feature}`,
            from: './apps/web/src/features',
            except: [`./${feature}`],
            message:
              ' A web feature never imports another feature: what two screens share goes to src/api, src/components or src/lib.',
          })),
        },
      ],
    },
  },
  {
    files: ['apps/server/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            SERVER_NEVER_IMPORTS_WEB,
            {
              target: './apps/server',
              from: './apps/sandbox',
              message: ' The server imports the Cloudflare emulator only in src/demo.ts and tests.',
            },
            CLOUDFLARE_IMPORTS_NO_MODULE,
            JOBS_IMPORT_NO_MODULE,
            {
              // The composition root builds the modules, never the other way round (tests may build an app).
              target: './apps/server/src/modules',
              from: ['./apps/server/src/app.ts', './apps/server/src/services.ts'],
              message:
                ' A module gets its services handed in by app.ts (built in services.ts); it never imports them.',
            },
          ],
        },
      ],
    },
  },
  // A module's files reach another module as `../<module>`; everything else under src/ as
  // `(../)modules/<module>`; the bench as `.../apps/server/src/modules/<module>`.
  { files: ['apps/server/src/modules/*/**/*.ts'], rules: moduleEntryOnly('^\\.\\./[a-z-]+/') },
  { files: ['apps/server/src/*.ts'], rules: moduleEntryOnly('^\\./modules/[a-z-]+/') },
  {
    files: ['apps/server/src/*/**/*.ts'],
    ignores: ['apps/server/src/modules/**'],
    rules: moduleEntryOnly('(^|/)modules/[a-z-]+/'),
  },
  { files: ['bench/**/*.ts'], rules: moduleEntryOnly('apps/server/src/modules/[a-z-]+/') },
  {
    // The demo and the tests run against the emulator.
    files: [
      'apps/server/src/demo.ts',
      'apps/server/**/*.test.ts',
      'apps/server/src/test/**/*.ts',
      'apps/server/src/security/support.ts',
    ],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { zones: [SERVER_NEVER_IMPORTS_WEB, CLOUDFLARE_IMPORTS_NO_MODULE] },
      ],
    },
  },
);
