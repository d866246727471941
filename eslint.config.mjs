// Lint of the whole repository (`npm run lint`, also run by `npm test`): ESLint's and
// typescript-eslint's recommended rules, plus the type-aware promise rules, since an unawaited or
// misused promise in a payment service loses work silently. Formatting is Prettier's alone
// (`npm run format`); eslint-config-prettier turns off every rule that would fight it.
// Decisions: docs/architecture.md ("Lint and format").
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'dashboard/dist/',
      'test-results/',
      'playwright-report/',
      'src/generated/',
      'clients/typescript/src/generated/',
      'coverage/',
      'data/',
      '.tools/',
      '.test-stack/',
      '.schemathesis/',
      'bench/results/',
    ],
  },
  eslint.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Type-aware: every promise is awaited, returned, or explicitly let go with `void`.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/prefer-promise-reject-errors': 'error',
      '@typescript-eslint/return-await': ['error', 'error-handling-correctness-only'],
      // `any` is used deliberately at a few library seams (Koa router typing, zod-to-openapi).
      '@typescript-eslint/no-explicit-any': 'off',
      // A `let` first assigned after a closure that reads it is declared before on purpose.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    // The domain knows nothing of HTTP (docs/architecture.md): only src/http, the service's
    // assembly and the CLI may reach into src/http.
    files: ['src/**/*.ts', 'activities/**/*.ts', 'workflows/**/*.ts'],
    ignores: ['src/http/**', 'src/service.ts', 'src/main.ts', 'src/index.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../http', '../http/*', '../../http', '../../http/*', '../../src/http', '../../src/http/*', '../../../src/http/*'],
              message: 'Domain code must not import src/http (docs/architecture.md).',
            },
          ],
        },
      ],
    },
  },
  {
    // No circle between the top-level folders (docs/architecture.md, "Where a feature's parts
    // live"): src/ imports neither activities/ nor workflows/ (it types workflow calls from core/
    // and loads the worker by path, src/temporal/worker.ts); activities/ never import workflows/.
    files: ['src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(activities|workflows)(/|$)',
              message: 'src/ imports neither activities/ nor workflows/: type workflow calls from core/ (docs/architecture.md).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['activities/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+workflows(/|$)',
              message: 'Activities never import workflow code (docs/architecture.md).',
            },
          ],
        },
      ],
    },
  },
  {
    // Workflow code is replayed and must be deterministic: it imports only the core, the
    // workflow SDK and pure libraries, and the activities' types (erased; how Temporal's samples
    // type their activity proxies). docs/architecture.md, "Where each kind of rule lives".
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '^(?!@temporalio/workflow$|@temporalio/common$|decimal\\.js$|\\./|\\.\\./(?!\\.\\./)|\\.\\./\\.\\./core(/|$)|\\.\\./\\.\\./activities(/|$))',
              message: 'Workflow code imports only core/, @temporalio/workflow and pure libraries (docs/architecture.md).',
            },
            {
              regex: '^\\.\\./\\.\\./activities(/|$)',
              allowTypeImports: true,
              message: "Workflow code imports the activities' types only (import type).",
            },
          ],
        },
      ],
    },
  },
  {
    // The core is pure: it knows nothing of the service, the workflows' runtime or Node.
    files: ['core/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!@temporalio/workflow$|@temporalio/common$|decimal\\.js$|\\./|\\.\\./(?!\\.\\./))',
              message: 'core/ imports only itself, the SDK definitions and pure libraries (docs/architecture.md).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        console: 'readonly',
        __dirname: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
