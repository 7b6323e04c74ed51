// ESLint for the whole house: the recommended JavaScript and typescript-eslint rules, with
// formatting left to Prettier (eslint-config-prettier turns off the rules that would fight it).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'results/', '.tools/', '.vitest/', '.scratch/'] },
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
    },
  },
);
