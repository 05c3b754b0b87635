import { defineConfig } from "vitest/config";

// No React plugin: JSX is compiled by Vite's built-in transform; fast refresh is
// not worth a dependency here. `base: "./"` makes the same build work when
// served by the sidecar at "/" and when bundled as the Tauri shell's frontend.
export default defineConfig({
  base: "./",
  oxc: { jsx: { runtime: "automatic" } },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
  },
  test: {
    include: ["tests/**/*.test.ts"],
    environment: "node",
  },
});
