// Lint: module boundaries by Nx tags (`type:` for direction, `scope:` per service), no floating promises,
// exhaustive switches, and no relative imports that reach into another project.
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

/**
 * Module boundaries by Nx tags. Tests (`*.spec.ts`) may also use the `type:testing` library and start an app
 * through the `type:platform` wiring; production code may not. Only apps (and the test helpers) compose the
 * platform: a domain library takes the logger, clock and config tokens from `type:core`.
 */
function boundaries({ tests }) {
  const testing = tests ? ['type:testing', 'type:platform'] : [];
  return {
    enforceBuildableLibDependency: false,
    allow: [],
    depConstraints: [
      { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [] },
      { sourceTag: 'type:core', onlyDependOnLibsWithTags: ['type:contracts'] },
      {
        sourceTag: 'type:infra',
        onlyDependOnLibsWithTags: ['type:infra', 'type:core', 'type:contracts', ...testing],
      },
      {
        sourceTag: 'type:domain',
        onlyDependOnLibsWithTags: ['type:infra', 'type:core', 'type:contracts', ...testing],
      },
      {
        sourceTag: 'type:platform',
        onlyDependOnLibsWithTags: ['type:infra', 'type:core', 'type:contracts', ...testing],
      },
      {
        sourceTag: 'type:testing',
        onlyDependOnLibsWithTags: ['type:platform', 'type:infra', 'type:core', 'type:contracts'],
      },
      {
        sourceTag: 'type:app',
        onlyDependOnLibsWithTags: [
          'type:platform',
          'type:domain',
          'type:infra',
          'type:core',
          'type:contracts',
          ...testing,
        ],
      },
      { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
      { sourceTag: 'scope:accounts', onlyDependOnLibsWithTags: ['scope:accounts', 'scope:shared'] },
      { sourceTag: 'scope:billing', onlyDependOnLibsWithTags: ['scope:billing', 'scope:shared'] },
      // Each app composes its own domain and reaches the others over the service transport (see
      // docs/architecture.md); domain libraries never meet. The gateway composes the accounts and reads every
      // other domain's OpenAPI fragment, nothing else of it, for the whole document.
      {
        sourceTag: 'scope:gateway',
        onlyDependOnLibsWithTags: [
          'scope:shared',
          'scope:compat-protocols',
          'scope:accounts',
          'scope:billing',
          'scope:catalog',
          'scope:tasks',
          'scope:webhooks',
          'scope:media',
        ],
      },
      {
        sourceTag: 'scope:app-webhooks',
        onlyDependOnLibsWithTags: ['scope:shared', 'scope:webhooks'],
      },
      {
        // The tasks app runs the native text streams where their client is (the runner's text run).
        sourceTag: 'scope:app-tasks',
        onlyDependOnLibsWithTags: ['scope:shared', 'scope:catalog', 'scope:tasks', 'scope:runner'],
      },
      {
        // The compatibility app runs text streams where their client is: the catalog (built from the catalog
        // app's document), the streams module of the tasks domain (no table) and the text run (runner).
        sourceTag: 'scope:app-compat-protocols',
        onlyDependOnLibsWithTags: [
          'scope:shared',
          'scope:compat-protocols',
          'scope:catalog',
          'scope:tasks',
          'scope:runner',
        ],
      },
      {
        // The runner app reads the model bindings (and their fallbacks) from the catalog it composes, and
        // media inputs through the media domain's port.
        sourceTag: 'scope:app-runner',
        onlyDependOnLibsWithTags: ['scope:shared', 'scope:catalog', 'scope:runner', 'scope:media'],
      },
      {
        sourceTag: 'scope:app-media',
        onlyDependOnLibsWithTags: ['scope:shared', 'scope:media'],
      },
      {
        sourceTag: 'scope:app-billing',
        onlyDependOnLibsWithTags: ['scope:shared', 'scope:billing'],
      },
      {
        // The migrations entry reads each domain's schema and migrations folder, nothing else of it.
        sourceTag: 'scope:app-migrate',
        onlyDependOnLibsWithTags: [
          'scope:shared',
          'scope:accounts',
          'scope:billing',
          'scope:tasks',
          'scope:runner',
          'scope:webhooks',
          'scope:media',
        ],
      },
      { sourceTag: 'scope:cli', onlyDependOnLibsWithTags: ['scope:shared'] },
      // start:fleet starts the apps as processes and routes to them: it composes no domain.
      { sourceTag: 'scope:fleet', onlyDependOnLibsWithTags: ['scope:shared'] },
      { sourceTag: 'scope:deploy', onlyDependOnLibsWithTags: ['scope:shared'] },
      {
        sourceTag: 'scope:embedded',
        onlyDependOnLibsWithTags: [
          'scope:shared',
          'scope:compat-protocols',
          'scope:accounts',
          'scope:billing',
          'scope:catalog',
          'scope:tasks',
          'scope:runner',
          'scope:webhooks',
          'scope:media',
        ],
      },
      { sourceTag: 'scope:e2e', onlyDependOnLibsWithTags: ['scope:shared'] },
      ...['compat-protocols', 'catalog', 'tasks', 'media', 'runner', 'webhooks'].map((s) => ({
        sourceTag: `scope:${s}`,
        onlyDependOnLibsWithTags: ['scope:shared', `scope:${s}`],
      })),
    ],
  };
}

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/generated/**', '**/*.js', '**/*.mjs', '.nx/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/libs/**', '../../*/src/**', '@gen/*/src/**'],
              message: 'Import another library only through its entry point (@gen/<lib>).',
            },
          ],
        },
      ],
      '@nx/enforce-module-boundaries': ['error', boundaries({ tests: false })],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', '**/*.browser-spec.ts', '**/testing/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@nx/enforce-module-boundaries': ['error', boundaries({ tests: true })],
    },
  },
  prettier,
);
