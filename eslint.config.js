// ESLint flat config: the ecosystem's recommended rules for JavaScript and TypeScript (typescript-eslint's
// `recommended`), plus the few rules this project leans on. Formatting is Prettier's job (npm run format).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import vitest from '@vitest/eslint-plugin';

export default tseslint.config(
  { ignores: ['node_modules/**', 'reports/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        performance: 'readonly',
        structuredClone: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        fetch: 'readonly',
      },
    },
    rules: {
      'no-duplicate-imports': ['error', { allowSeparateTypeImports: true }],
      // control characters in patterns are deliberate here (sanitising untrusted text for reports and terminals)
      'no-control-regex': 'off',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    // the harness library and its commands stay readable in small pieces: no function over 80 lines
    files: ['lib/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  {
    // the project's own tests: a test asserts something, unconditionally, and every expect is complete.
    // Vitest's requireAssertions (vitest.config.ts) catches at run time what these cannot see statically.
    files: ['test/**/*.ts'],
    plugins: { vitest },
    rules: {
      ...vitest.configs.recommended.rules,
      // the project's assertion helpers count as assertions (test/mask/properties.ts, test/profile, test/cli)
      'vitest/expect-expect': [
        'error',
        { assertFunctionNames: ['expect', 'expect*', 'assert*', 'fc.assert', 'refused'] },
      ],
      'vitest/no-conditional-expect': 'error',
      'vitest/no-conditional-in-test': 'error',
      // expect(value, message): Vitest's second argument names the failure
      'vitest/valid-expect': ['error', { maxArgs: 2 }],
      // test titles built from the case's data (it(id, ...) in a loop over fault ids)
      'vitest/valid-title': ['error', { allowArguments: true }],
      'vitest/valid-expect-in-promise': 'error',
      'vitest/no-standalone-expect': 'error',
      'vitest/no-identical-title': 'error',
      'vitest/no-disabled-tests': 'error',
      'vitest/no-focused-tests': 'error',
      // a length or emptiness stated before a loop or .every() over it (an empty list passes any loop)
      'vitest/prefer-to-have-length': 'error',
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', __dirname: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
