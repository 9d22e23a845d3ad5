// ESLint flat config: the recommended rules of ESLint, typescript-eslint (type-aware) and
// eslint-plugin-svelte. `npm run lint` fails on any warning (`--max-warnings 0`).
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';
import svelteConfig from './svelte.config.js';

export default defineConfig(
  globalIgnores(['dist/', 'node_modules/', 'coverage/']),
  js.configs.recommended,
  ts.configs.recommendedTypeChecked,
  svelte.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.browser },
      parserOptions: {
        // One TypeScript program (tsconfig.json) answers the type-aware rules of .ts and .svelte.
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
        extraFileExtensions: ['.svelte'],
      },
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      parserOptions: { parser: ts.parser, svelteConfig },
    },
  },
  {
    // Build and tool configs run in Node and are outside tsconfig.json's program.
    files: ['*.config.js', '*.config.ts'],
    extends: [ts.configs.disableTypeChecked],
    languageOptions: { globals: { ...globals.node } },
  },
);
