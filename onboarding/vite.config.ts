import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** Built into `dist/`, served by the gateway under `/onboarding/` (gateway/src/routes/onboarding-routes.ts). */
export default defineConfig({
  base: '/onboarding/',
  plugins: [react()],
  build: { outDir: 'dist', assetsDir: 'assets', emptyOutDir: true, sourcemap: false },
});
