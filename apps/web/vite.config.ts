import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { desktopTools } from './desktop-tools.ts';
import { firstLoadChunks } from './first-load-chunks.ts';
import { narrowImports } from './narrow-imports.ts';
import { splitFeatureTexts } from './split-texts.ts';

/** Writes .br and .gz beside each text asset so the server sends them without compressing per request. */
function precompress(): Plugin {
  const compressible = /\.(js|css|html|svg|json)$/;
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]));
  let outDir = 'dist';
  return {
    name: 'sunward-precompress',
    apply: 'build',
    configResolved(config) {
      // The build's own output folder (--outDir builds a second copy elsewhere, e.g. for a browser test run).
      outDir = config.build.outDir;
    },
    closeBundle() {
      for (const file of walk(outDir)) {
        if (!compressible.test(file) || statSync(file).size < 1024) continue;
        const content = readFileSync(file);
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

// In development Vite serves the console and forwards API paths to the server (npm run dev).
const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '8080'}`;

export default defineConfig({
  plugins: [splitFeatureTexts(), narrowImports(), react(), desktopTools(), precompress()],
  server: {
    port: Number(process.env.WEB_PORT ?? 5173),
    proxy: { '/api': apiTarget, '/oauth': apiTarget, '/anonymous': apiTarget },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 30 },
            // The sign-in page's, antd's and the signed-in shell's modules, each in one chunk (first-load-chunks.ts).
            ...firstLoadChunks(),
          ],
        },
      },
    },
  },
});
