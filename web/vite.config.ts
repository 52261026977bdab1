import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

// The hub embeds dist/ with go:embed, which needs at least one file there
// before the first build; dist/.keep is committed, and a build (which empties
// dist/) writes it back so the work tree stays clean.
function keepFile(): Plugin {
  return {
    name: "keep-dist-placeholder",
    apply: "build",
    closeBundle() {
      writeFileSync(
        resolve(__dirname, "dist/.keep"),
        "The hub embeds this folder; `make web` (or `make run`) builds the web application into it.\n",
      );
    },
  };
}

export default defineConfig({
  plugins: [react(), keepFile()],
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false },
  server: {
    port: 5173,
    proxy: { "/api": { target: process.env.HUB_URL ?? "http://127.0.0.1:8080", changeOrigin: false } },
  },
  test: {
    environment: "jsdom",
    globals: true,
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["src/test/setup.ts"],
    css: false,
    testTimeout: 20000, // see src/test/setup.ts
  },
});
