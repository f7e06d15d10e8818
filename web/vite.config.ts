import { svelte } from '@sveltejs/vite-plugin-svelte'
import { defineConfig } from 'vitest/config'

// `npm run dev` serves the client with hot reload and forwards the API (HTTP and the
// WebSocket) to a server started with `tabletop serve` (TABLETOP_SERVER overrides where).
const server = process.env.TABLETOP_SERVER ?? 'http://127.0.0.1:8080'

export default defineConfig({
  plugins: [svelte()],
  server: {
    proxy: {
      '/api': { target: server, ws: true, changeOrigin: true },
    },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
  },
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
})
