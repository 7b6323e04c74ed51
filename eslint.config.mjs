// ESLint for the whole house: the recommended JavaScript and typescript-eslint rules, with
// formatting left to Prettier (eslint-config-prettier turns off the rules that would fight it).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'results/', '.tools/', '.vitest/', '.scratch/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { globals: globals.node },
    rules: {
      // A leading underscore names what a destructuring leaves out on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      'max-len': ['error', { code: 120, ignoreUrls: true }],
      // Limits on what a reader holds at once: a function, not a file (a cohesive file may be long;
      // a split at a line count scatters one idea over two files).
      'max-lines-per-function': ['error', { max: 80 }],
      complexity: ['error', 20],
    },
  },
  {
    // The report's html`...` templates are the page's bytes (tests match them, and whitespace in a
    // <pre> or between inline elements shows): a line there is as long as its markup, and Prettier
    // leaves embedded HTML alone (embeddedLanguageFormatting: off).
    files: ['rig/report/**'],
    rules: { 'max-len': ['error', { code: 120, ignoreUrls: true, ignoreTemplateLiterals: true }] },
  },
  {
    // Tests read JSON replies whose shape is the thing under test; there `any` is deliberate.
    // A test's describe() holds its cases, and a case reads as one story: no function limits there.
    files: ['test/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      'max-lines-per-function': 'off',
      complexity: 'off',
    },
  },
  {
    // One scenario API: the same rule test/scenarios.imports.test.ts checks with the list in
    // test/support/scenarioImports.ts, here so an editor shows it as the file is written.
    files: ['scenarios/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!a2a-rig$|node:|(\\.\\./)+rig/protocol/|(\\.\\./)+rig/scenarioApi\\.ts$)',
              message: "a scenario imports only from 'a2a-rig', rig/protocol/ and node: built-ins",
            },
          ],
        },
      ],
    },
  },
);
